package io.respsql.command;

import io.netty.buffer.Unpooled;
import io.respsql.acl.Acl;
import io.respsql.acl.AclUser;
import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.ArrayList;
import java.util.List;

/**
 * Redis 7's {@code ACL} command: SETUSER, GETUSER, DELUSER, USERS, LIST, WHOAMI, CAT, LOG, SAVE,
 * LOAD, GENPASS, DRYRUN, HELP over {@link Acl}. Never replies a password: only SHA-256 hashes
 * (and SCRAM verifiers) leave. SETUSER, DELUSER and DRYRUN are never in the SLOWLOG (their
 * arguments may carry passwords).
 */
final class AclCommands {
    private final ServerContext ctx;

    private AclCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        AclCommands c = new AclCommands(ctx);
        int admin = CommandFlags.ADMIN | CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE;
        int plain = CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(CommandSpec.builder("acl", -2).group("server")
            .summary("A container for Access List Control commands.")
            .handler((s, a, out) -> Replies.wrongArity(out, ctx.commands().lookup("acl")))
            .subcommand(CommandSpec.builder("setuser", -3).flags(admin | CommandFlags.SKIP_SLOWLOG).group("server")
                .summary("Creates and modifies an ACL user and its rules.").handler(c::setuser).build())
            .subcommand(CommandSpec.builder("getuser", 3).flags(admin).group("server")
                .summary("Lists the ACL rules of a user.").handler(c::getuser).build())
            .subcommand(CommandSpec.builder("deluser", -3).flags(admin).group("server")
                .summary("Deletes ACL users, and terminates their connections.").handler(c::deluser).build())
            .subcommand(CommandSpec.builder("users", 2).flags(admin).group("server")
                .summary("Lists all ACL users.").handler(c::users).build())
            .subcommand(CommandSpec.builder("list", 2).flags(admin).group("server")
                .summary("Dumps the effective rules in ACL file format.").handler(c::list).build())
            .subcommand(CommandSpec.builder("whoami", 2).flags(plain).group("server")
                .summary("Returns the authenticated username of the current connection.")
                .handler((s, a, out) -> out.bulk(s.userName())).build())
            .subcommand(CommandSpec.builder("cat", -2).flags(plain).group("server")
                .summary("Lists the ACL categories, or the commands inside a category.").handler(c::cat).build())
            .subcommand(CommandSpec.builder("log", -2).flags(admin).group("server")
                .summary("Lists recent security events generated due to ACL rules.").handler(c::log).build())
            .subcommand(CommandSpec.builder("save", 2).flags(admin).group("server")
                .summary("Saves the effective ACL rules in the configured ACL file.").handler(c::save).build())
            .subcommand(CommandSpec.builder("load", 2).flags(admin).group("server")
                .summary("Reloads the rules from the configured ACL file.").handler(c::load).build())
            .subcommand(CommandSpec.builder("genpass", -2).flags(plain).group("server")
                .summary("Generates a pseudorandom, secure password that can be used to identify ACL users.")
                .handler(c::genpass).build())
            .subcommand(CommandSpec.builder("dryrun", -4).flags(admin | CommandFlags.SKIP_SLOWLOG).group("server")
                .summary("Simulates the execution of a command by a user, without executing the command.")
                .handler(c::dryrun).build())
            .subcommand(CommandSpec.builder("help", 2).flags(plain).group("server")
                .summary("Returns helpful text about the different subcommands.").handler(AclCommands::help).build())
            .build());
    }

    private void setuser(Session s, CommandArgs a, RespWriter out) {
        List<String> rules = new ArrayList<>();
        for (int i = 3; i < a.count(); i++) {
            rules.add(a.string(i));
        }
        try {
            ctx.acl().setUser(a.string(2), rules);
            out.ok();
        } catch (Acl.AclException e) {
            out.error(e.getMessage());
        }
    }

    private void getuser(Session s, CommandArgs a, RespWriter out) {
        AclUser u = ctx.acl().user(a.string(2));
        if (u == null) {
            out.nullBulk();
            return;
        }
        io.respsql.acl.Acl.UserView v = ctx.acl().view(u);
        out.mapHeader(6);
        out.bulk("flags");
        out.arrayHeader(v.flags().size());
        for (String f : v.flags()) {
            out.bulk(f);
        }
        out.bulk("passwords");
        out.arrayHeader(v.passwords().size());
        for (String p : v.passwords()) {
            out.bulk(p);
        }
        out.bulk("commands");
        out.bulk(v.commands());
        out.bulk("keys");
        out.bulk(v.keys());
        out.bulk("channels");
        out.bulk(v.channels());
        out.bulk("selectors");
        out.arrayHeader(0);
    }

    private void deluser(Session s, CommandArgs a, RespWriter out) {
        List<String> names = new ArrayList<>();
        for (int i = 2; i < a.count(); i++) {
            names.add(a.string(i));
        }
        List<AclUser> removed;
        try {
            removed = ctx.acl().deleteUsers(names);
        } catch (Acl.AclException e) {
            out.error(e.getMessage());
            return;
        }
        out.integer(removed.size()); // their connections were closed (ServerContext's listener), as Redis
    }

    private void users(Session s, CommandArgs a, RespWriter out) {
        List<String> names = new ArrayList<>();
        for (AclUser u : ctx.acl().users()) {
            names.add(u.name());
        }
        out.arrayHeader(names.size());
        for (String n : names) {
            out.bulk(n);
        }
    }

    private void list(Session s, CommandArgs a, RespWriter out) {
        List<String> lines = ctx.acl().list();
        out.arrayHeader(lines.size());
        for (String l : lines) {
            out.bulk(l);
        }
    }

    private void cat(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            Replies.wrongArity(out, ctx.commands().lookup("acl").subcommands().lookup("cat"));
            return;
        }
        List<String> names;
        if (a.count() == 2) {
            names = ctx.acl().categories();
        } else {
            String cat = a.string(2).toLowerCase(java.util.Locale.ROOT);
            names = ctx.acl().commandsIn(cat.startsWith("@") ? cat.substring(1) : cat);
            if (names == null) {
                out.error("ERR Unknown category '" + a.string(2) + "'");
                return;
            }
        }
        out.arrayHeader(names.size());
        for (String n : names) {
            out.bulk(n);
        }
    }

    private void log(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            Replies.wrongArity(out, ctx.commands().lookup("acl").subcommands().lookup("log"));
            return;
        }
        int max = 10;
        if (a.count() == 3) {
            if (a.is(2, "reset")) {
                ctx.acl().resetLog();
                out.ok();
                return;
            }
            if (!a.isLong(2) || a.longValue(2) < 0) {
                out.error("ERR value is out of range, must be positive");
                return;
            }
            max = (int) Math.min(Integer.MAX_VALUE, a.longValue(2));
        }
        long now = System.currentTimeMillis();
        List<Acl.LogEntry> entries = ctx.acl().logEntries(max);
        out.arrayHeader(entries.size());
        for (Acl.LogEntry e : entries) {
            out.mapHeader(10);
            out.bulk("count");
            out.integer(e.count);
            out.bulk("reason");
            out.bulk(e.reason);
            out.bulk("context");
            out.bulk(e.context);
            out.bulk("object");
            out.bulk(e.object);
            out.bulk("username");
            out.bulk(e.username);
            out.bulk("age-seconds");
            out.doubleValue((now - e.created) / 1000.0);
            out.bulk("client-info");
            out.bulk(e.clientInfo);
            out.bulk("entry-id");
            out.integer(e.entryId);
            out.bulk("timestamp-created");
            out.integer(e.created);
            out.bulk("timestamp-last-updated");
            out.integer(e.updated);
        }
    }

    private void save(Session s, CommandArgs a, RespWriter out) {
        try {
            ctx.acl().save();
            out.ok();
        } catch (Acl.AclException e) {
            out.error(e.getMessage());
        }
    }

    private void load(Session s, CommandArgs a, RespWriter out) {
        try {
            ctx.acl().load();
            out.ok();
        } catch (Acl.AclException e) {
            out.error(e.getMessage());
        }
    }

    private void genpass(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            Replies.wrongArity(out, ctx.commands().lookup("acl").subcommands().lookup("genpass"));
            return;
        }
        long bits = 256;
        if (a.count() == 3) {
            if (!a.isLong(2) || a.longValue(2) <= 0 || a.longValue(2) > 4096) {
                out.error("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096");
                return;
            }
            bits = a.longValue(2);
        }
        out.bulk(Acl.genpass((int) bits));
    }

    /**
     * {@code ACL DRYRUN user command [arg ...]}: +OK when the user could run it, else the reason
     * as a bulk string; a SQL statement is checked as it would run (its verb and every table).
     */
    private void dryrun(Session s, CommandArgs a, RespWriter out) {
        AclUser u = ctx.acl().user(a.string(2));
        if (u == null) {
            out.error("ERR User '" + a.string(2) + "' not found");
            return;
        }
        CommandArgs inner = new CommandArgs();
        for (int i = 3; i < a.count(); i++) {
            inner.add(Unpooled.wrappedBuffer(a.bytes(i)));
        }
        CommandSpec spec = ctx.commands().lookup(inner.get(0));
        if (spec == null) {
            out.error("ERR Command '" + inner.string(0) + "' not found");
            return;
        }
        if (spec.subcommands() != null && inner.count() >= 2) {
            CommandSpec sub = spec.subcommands().lookup(inner.get(1));
            if (sub != null) {
                spec = sub;
            }
        }
        if (!spec.arityAccepts(inner.count())) {
            out.error("ERR wrong number of arguments for '" + spec.fullName() + "' command");
            return;
        }
        CommandSpec top = spec.parent() != null ? spec.parent() : spec;
        if (!u.unrestricted() && !top.hasFlag(CommandFlags.NO_AUTH) && !u.mayRun(spec.fullName())) {
            out.bulk("User " + u.name() + " has no permissions to run the '" + spec.fullName() + "' command");
            return;
        }
        String text = SqlCommands.statementText(top, inner);
        if (text != null && !u.unrestricted()) {
            io.respsql.sql.tree.Statement st;
            boolean prior = io.respsql.sql.Dialect.set(s.postgresDialect());
            try {
                st = io.respsql.sql.SqlParser.parse(text);
            } catch (RuntimeException e) {
                out.error("ERR " + e.getMessage());
                return;
            } finally {
                io.respsql.sql.Dialect.set(prior);
            }
            String[] why = new String[2];
            String denied = ctx.acl().checkStatement(u, st, ctx.sql()::indexOwner, (reason, object) -> {
                why[0] = reason;
                why[1] = object;
            });
            if (denied != null) {
                out.bulk("key".equals(why[0])
                        ? "User " + u.name() + " has no permissions to access the '" + why[1] + "' key"
                        : "User " + u.name() + " has no permissions to run the '" + why[1] + "' command");
                return;
            }
        }
        out.ok();
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "ACL", List.of(
            "CAT [<category>]",
            "    List all commands that belong to <category>, or all command categories",
            "    when no category is specified.",
            "DELUSER <username> [<username> ...]",
            "    Delete a list of users.",
            "DRYRUN <username> <command> [<arg> ...]",
            "    Returns whether the user can execute the given command without executing the command.",
            "GETUSER <username>",
            "    Get the user's details.",
            "GENPASS [<bits>]",
            "    Generate a secure 256-bit user password. The optional `bits` argument can",
            "    be used to specify a different size.",
            "LIST",
            "    Show users details in config file format.",
            "LOAD",
            "    Reload users from the ACL file.",
            "LOG [<count> | RESET]",
            "    Show the ACL log entries.",
            "SAVE",
            "    Save the current config to the ACL file.",
            "SETUSER <username> <attribute> [<attribute> ...]",
            "    Create or modify a user with the specified attributes.",
            "USERS",
            "    List all the registered usernames.",
            "WHOAMI",
            "    Return the current connection username."));
    }
}
