package io.respsql.acl;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ACL categories of SQL's verbs, which are commands of the ACL (on RESP most are commands
 * too: {@code SELECT}, {@code INSERT}, ...; {@code ALTER}, {@code TRUNCATE}, {@code GRANT} and the
 * transaction verbs arrive through {@code SQL}/{@code QUERY} or the PostgreSQL protocol):
 * <ul>
 * <li>reads: {@code @read @slow @sql};
 * <li>row writes (INSERT, UPDATE, DELETE, COPY): {@code @write @slow @sql};
 * <li>schema changes (CREATE, DROP, ALTER, TRUNCATE): {@code @write @admin @dangerous @slow @sql},
 *     as Redis files FLUSHALL and the commands that change the server's shape;
 * <li>users and privileges (GRANT, REVOKE, and CREATE/ALTER/DROP USER|ROLE, which also need
 *     {@code acl|setuser}): {@code @admin @dangerous @slow @sql};
 * <li>transaction control: {@code @transaction @fast @sql}; session settings {@code @connection @fast @sql};
 * <li>{@code SQL}, {@code QUERY}, {@code EXECUTE}: wrappers, {@code @read @write @slow @sql}: what they
 *     run is checked as its own verb.
 * </ul>
 */
public final class SqlVerbs {
    private SqlVerbs() {
    }

    private static final List<String> READ = List.of("read", "slow", "sql");
    private static final List<String> WRITE = List.of("write", "slow", "sql");
    private static final List<String> SCHEMA = List.of("write", "admin", "dangerous", "slow", "sql");
    private static final List<String> PRIVILEGES = List.of("admin", "dangerous", "slow", "sql");
    private static final List<String> WRAPPER = List.of("read", "write", "slow", "sql");
    private static final List<String> TX = List.of("transaction", "fast", "sql");
    private static final List<String> SESSION = List.of("connection", "fast", "sql");

    /** Every SQL verb the ACL knows, with its categories (without '@'). */
    public static final Map<String, List<String>> VERBS = new LinkedHashMap<>();

    static {
        for (String v : new String[] {"select", "scanselect", "desc", "describe", "dump", "show", "explain"}) {
            VERBS.put(v, READ);
        }
        for (String v : new String[] {"insert", "update", "delete", "copy", "prepare", "deallocate", "merge"}) {
            VERBS.put(v, WRITE);
        }
        for (String v : new String[] {"create", "drop", "alter", "truncate"}) {
            VERBS.put(v, SCHEMA);
        }
        for (String v : new String[] {"grant", "revoke"}) {
            VERBS.put(v, PRIVILEGES);
        }
        for (String v : new String[] {"sql", "query", "execute"}) {
            VERBS.put(v, WRAPPER);
        }
        for (String v : new String[] {"begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release"}) {
            VERBS.put(v, TX);
        }
        for (String v : new String[] {"set", "reset", "discard"}) {
            VERBS.put(v, SESSION);
        }
    }

    /** Verbs whose statements name no table (transaction control, settings): no table check. */
    static final Set<String> TABLELESS = Set.of("begin", "start", "commit", "end", "rollback", "abort", "savepoint",
            "release", "set", "reset", "discard", "show", "prepare", "deallocate");

    /** The categories of verb {@code v}, or null when it is no SQL verb. */
    public static List<String> categories(String v) {
        return VERBS.get(v);
    }
}
