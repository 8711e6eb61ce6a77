package io.respsql.acl;

import io.respsql.engine.UserStatements;
import io.respsql.result.Outcome;
import io.respsql.sql.SqlState;
import io.respsql.sql.tree.Statement;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * SQL's form of the ACL, mapped onto the same users (ACL GETUSER shows what GRANT gave):
 * <ul>
 * <li>{@code CREATE USER|ROLE u [WITH] [LOGIN|NOLOGIN] [PASSWORD 'p'] [SUPERUSER]} is
 *     {@code ACL SETUSER u reset on|off >p +@connection +@transaction +sql +query +execute +set}
 *     (a user that can connect and touch no table; SUPERUSER adds {@code +@all allkeys allchannels});
 *     CREATE USER is LOGIN by default, CREATE ROLE NOLOGIN (PostgreSQL's defaults).
 * <li>{@code ALTER USER u PASSWORD 'p'} replaces the passwords ({@code resetpass >p}); {@code PASSWORD NULL}
 *     removes them; LOGIN/NOLOGIN is on/off.
 * <li>{@code GRANT SELECT ON t TO u}: the read verbs (+select +scanselect +desc +describe +dump +explain)
 *     and {@code %R~t}; INSERT (+insert +copy), UPDATE, DELETE, TRUNCATE: the verb and {@code %W~t};
 *     ALL: all of them and {@code ~t}. The verbs are the user's, the R/W patterns per table: a user
 *     granted INSERT on a and DELETE on b may also DELETE from a (Redis's model has no per-table verbs).
 * <li>{@code REVOKE p ON t FROM u} takes back the pattern's R or W that GRANT gave t; it does not
 *     carve a table out of a wider pattern ({@code ~*}): Redis's patterns only allow.
 * </ul>
 */
public final class AclSql implements UserStatements {
    private final Acl acl;

    public AclSql(Acl acl) {
        this.acl = acl;
    }

    private static final List<String> BASE = List.of("+@connection", "+@transaction", "+sql", "+query", "+execute", "+set");

    @Override
    public Outcome run(Statement st) {
        try {
            if (st instanceof Statement.CreateUser c) {
                if (acl.user(c.name()) != null) {
                    return Outcome.failed(SqlState.DUPLICATE_OBJECT, "ERR role \"" + c.name() + "\" already exists");
                }
                List<String> rules = new ArrayList<>();
                rules.add("reset");
                rules.add(Boolean.FALSE.equals(c.login()) ? "off" : "on");
                rules.addAll(BASE);
                if (c.password() != null && !c.password().isEmpty()) {
                    rules.add(">" + c.password());
                }
                if (Boolean.TRUE.equals(c.superuser())) {
                    rules.addAll(List.of("+@all", "allkeys", "allchannels"));
                }
                acl.setUser(c.name(), rules);
            } else if (st instanceof Statement.AlterUser a) {
                if (acl.user(a.name()) == null) {
                    return missing(a.name());
                }
                List<String> rules = new ArrayList<>();
                if (a.login() != null) {
                    rules.add(a.login() ? "on" : "off");
                }
                if (a.password() != null) {
                    rules.add("resetpass");
                    if (!a.password().isEmpty()) {
                        rules.add(">" + a.password());
                    }
                }
                if (Boolean.TRUE.equals(a.superuser())) {
                    rules.add("+@all");
                    if (!acl.user(a.name()).mayAccess("*", AclUser.READ | AclUser.WRITE)) {
                        rules.add("allkeys");
                    }
                }
                acl.setUser(a.name(), rules);
            } else if (st instanceof Statement.DropUser d) {
                List<String> names = new ArrayList<>();
                for (String n : d.names()) {
                    if (acl.user(n) != null) {
                        names.add(n);
                    } else if (!d.ifExists()) {
                        return missing(n);
                    }
                }
                acl.deleteUsers(names);
            } else if (st instanceof Statement.Grant g) {
                for (String u : g.users()) {
                    if (acl.user(u) == null) {
                        return missing(u);
                    }
                }
                for (String u : g.users()) {
                    acl.grant(u, verbs(g.privileges()), lower(g.tables()), flags(g.privileges()));
                }
            } else if (st instanceof Statement.Revoke r) {
                for (String u : r.users()) {
                    if (acl.user(u) == null) {
                        return missing(u);
                    }
                }
                for (String u : r.users()) {
                    acl.revoke(u, lower(r.tables()), flags(r.privileges()));
                }
            }
            return Outcome.ok(-1); // -1: nothing for the append-only file or the replicas
        } catch (Acl.AclException e) {
            String m = e.getMessage();
            return Outcome.failed(SqlState.INVALID_PARAMETER_VALUE, m.startsWith("ERR ") ? m : "ERR " + m);
        }
    }

    private static Outcome missing(String name) {
        return Outcome.failed(SqlState.UNDEFINED_OBJECT, "ERR role \"" + name + "\" does not exist");
    }

    private static List<String> lower(List<String> names) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String l = n.toLowerCase(Locale.ROOT);
            out.add(l.startsWith("public.") ? l.substring(7) : l);
        }
        return out;
    }

    static int flags(List<String> privileges) {
        int f = 0;
        for (String p : privileges) {
            f |= switch (p) {
                case "ALL" -> AclUser.READ | AclUser.WRITE;
                case "SELECT" -> AclUser.READ;
                default -> AclUser.WRITE;
            };
        }
        return f;
    }

    static List<String> verbs(List<String> privileges) {
        Set<String> v = new LinkedHashSet<>();
        for (String p : privileges) {
            boolean all = p.equals("ALL");
            if (all || p.equals("SELECT")) {
                v.addAll(List.of("select", "scanselect", "desc", "describe", "dump", "explain"));
            }
            if (all || p.equals("INSERT")) {
                v.addAll(List.of("insert", "copy"));
            }
            if (all || p.equals("UPDATE")) {
                v.add("update");
            }
            if (all || p.equals("DELETE")) {
                v.add("delete");
            }
            if (all || p.equals("TRUNCATE")) {
                v.add("truncate");
            }
        }
        return new ArrayList<>(v);
    }
}
