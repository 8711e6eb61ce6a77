package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.List;

/** CLIENT SETNAME / GETNAME / SETINFO / ID / LIST / KILL / CANCEL / INFO / HELP. */
final class ClientCommands {
    private final ServerContext ctx;

    private ClientCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        ClientCommands c = new ClientCommands(ctx);
        int flags = CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE;
        return List.of(CommandSpec.builder("client", -2).group("connection")
            .summary("A container for client connection commands.")
            .handler((s, a, out) -> out.error("ERR wrong number of arguments for 'client' command"))
            .subcommand(CommandSpec.builder("setname", 3).flags(flags).group("connection")
                .summary("Sets the connection name.").handler(c::setName).build())
            .subcommand(CommandSpec.builder("getname", 2).flags(flags).group("connection")
                .summary("Returns the name of the connection.").handler(c::getName).build())
            .subcommand(CommandSpec.builder("setinfo", 4).flags(flags).group("connection")
                .summary("Sets information specific to the client or connection.").handler(c::setInfo).build())
            .subcommand(CommandSpec.builder("id", 2).flags(flags).group("connection")
                .summary("Returns the unique client ID of the connection.").handler((s, a, out) -> out.integer(s.id())).build())
            .subcommand(CommandSpec.builder("list", -2).flags(flags | CommandFlags.ADMIN).group("connection")
                .summary("Lists open connections.").handler(c::list).build())
            .subcommand(CommandSpec.builder("kill", -3).flags(flags | CommandFlags.ADMIN).group("connection")
                .summary("Terminates open connections.").handler(c::kill).build())
            .subcommand(CommandSpec.builder("cancel", 3).flags(flags | CommandFlags.ADMIN).group("connection")
                .summary("Cancels the statement a client is running, keeping its connection open.")
                .handler(c::cancel).build())
            .subcommand(CommandSpec.builder("info", 2).flags(flags).group("connection")
                .summary("Returns information about the connection.").handler(c::info).build())
            .subcommand(CommandSpec.builder("help", 2).flags(flags).group("connection")
                .summary("Returns helpful text about the different subcommands.").handler(ClientCommands::help).build())
            .build());
    }

    private void setName(Session s, CommandArgs a, RespWriter out) {
        String name = a.string(2);
        if (!ConnectionCommands.validName(name)) {
            out.error("ERR Client names cannot contain spaces, newlines or special characters.");
            return;
        }
        s.name(name);
        out.ok();
    }

    private void getName(Session s, CommandArgs a, RespWriter out) {
        if (s.name().isEmpty()) {
            out.nullBulk();
        } else {
            out.bulk(s.name());
        }
    }

    private void setInfo(Session s, CommandArgs a, RespWriter out) {
        boolean libName = a.is(2, "lib-name");
        if (!libName && !a.is(2, "lib-ver")) {
            out.error("ERR Unrecognized option '" + a.string(2) + "'");
            return;
        }
        String value = a.string(3);
        if (!ConnectionCommands.validName(value)) {
            out.error("ERR " + (libName ? "lib-name" : "lib-ver")
                    + " cannot contain spaces, newlines or special characters.");
            return;
        }
        if (libName) {
            s.libName(value);
        } else {
            s.libVer(value);
        }
        out.ok();
    }

    /** {@code CLIENT LIST [TYPE normal] [ID id ...]}: one line per client. */
    private void list(Session s, CommandArgs a, RespWriter out) {
        List<Long> ids = null;
        String type = null;
        int i = 2;
        while (i < a.count()) {
            if (a.is(i, "type") && i + 1 < a.count()) {
                type = clientType(a, i + 1);
                if (type == null) {
                    out.error("ERR Unknown client type '" + a.string(i + 1) + "'");
                    return;
                }
                i += 2;
            } else if (a.is(i, "id") && i + 1 < a.count()) {
                ids = new java.util.ArrayList<>();
                for (i = i + 1; i < a.count(); i++) {
                    if (!a.isLong(i) || a.longValue(i) <= 0) {
                        out.error("ERR Invalid client ID");
                        return;
                    }
                    ids.add(a.longValue(i));
                }
            } else {
                Replies.syntaxError(out);
                return;
            }
        }
        long now = ctx.stats().clockMillis();
        Session.resolveFds(ctx.clients().all());
        StringBuilder sb = new StringBuilder(256);
        if (ids == null) {
            for (Session c : ctx.clients().all()) {
                if (type != null && !type.equals(typeOf(c))) {
                    continue;
                }
                c.appendInfoLine(sb, now);
                sb.append('\n');
            }
        } else {
            for (long id : ids) {
                Session c = ctx.clients().byId(id);
                if (c != null && (type == null || type.equals(typeOf(c)))) {
                    c.appendInfoLine(sb, now);
                    sb.append('\n');
                }
            }
        }
        out.verbatim(sb.toString());
    }

    /**
     * {@code CLIENT KILL <ip:port>} (+OK or an error) or {@code CLIENT KILL <filter> <value> ...}
     * with filters ID, ADDR, LADDR, USER, SKIPME (the number killed). A client that kills itself
     * gets its reply, then is closed.
     */
    private void kill(Session s, CommandArgs a, RespWriter out) {
        if (a.count() == 3) {
            String addr = a.string(2);
            for (Session c : ctx.clients().all()) {
                if (c.addr().equals(addr)) {
                    killOne(s, c);
                    out.ok();
                    return;
                }
            }
            out.error("ERR No such client");
            return;
        }
        long id = 0;
        String addr = null;
        String laddr = null;
        boolean skipMe = true;
        String type = null;
        String user = null;
        for (int i = 2; i < a.count(); i += 2) {
            if (i + 1 >= a.count()) {
                Replies.syntaxError(out);
                return;
            }
            String value = a.string(i + 1);
            if (a.is(i, "id")) {
                if (!a.isLong(i + 1) || a.longValue(i + 1) <= 0) {
                    out.error("ERR client-id should be greater than 0");
                    return;
                }
                id = a.longValue(i + 1);
            } else if (a.is(i, "addr")) {
                addr = value;
            } else if (a.is(i, "laddr")) {
                laddr = value;
            } else if (a.is(i, "user")) {
                if (ctx.acl().user(value) == null) {
                    out.error("ERR No such user '" + value + "'");
                    return;
                }
                user = value;
            } else if (a.is(i, "skipme")) {
                if (a.is(i + 1, "yes")) {
                    skipMe = true;
                } else if (a.is(i + 1, "no")) {
                    skipMe = false;
                } else {
                    Replies.syntaxError(out);
                    return;
                }
            } else if (a.is(i, "type")) {
                type = clientType(a, i + 1);
                if (type == null) {
                    out.error("ERR Unknown client type '" + value + "'");
                    return;
                }
            } else {
                Replies.syntaxError(out);
                return;
            }
        }
        List<Session> victims = new java.util.ArrayList<>();
        for (Session c : ctx.clients().all()) {
            if ((id != 0 && c.id() != id) || (addr != null && !c.addr().equals(addr))
                    || (laddr != null && !c.laddr().equals(laddr)) || (skipMe && c == s)
                    || (type != null && !type.equals(typeOf(c))) || (user != null && !user.equals(c.userName()))) {
                continue;
            }
            victims.add(c);
        }
        for (Session c : victims) {
            killOne(s, c);
        }
        // The link to our master is no client session; as Redis, only TYPE master (with no
        // filter that names another connection) reaches it, so Sentinel's TYPE normal never does.
        boolean master = "master".equals(type) && id == 0 && addr == null && laddr == null
                && ctx.replication() != null && ctx.replication().killMasterLink();
        out.integer(victims.size() + (master ? 1 : 0));
    }

    /**
     * The class named by argument {@code i} of a TYPE filter ({@code normal}, {@code pubsub},
     * {@code master}, {@code replica}; {@code slave} is {@code replica}), or null for an unknown one.
     */
    private static String clientType(CommandArgs a, int i) {
        for (String t : new String[] {"normal", "pubsub", "master", "replica"}) {
            if (a.is(i, t)) {
                return t;
            }
        }
        return a.is(i, "slave") ? "replica" : null;
    }

    /**
     * A client's class as Redis counts it: {@code replica} for a replica's link (after PSYNC),
     * {@code pubsub} while subscribed, else {@code normal}. Sentinel's failover kills normal and
     * pubsub clients: never the replicas' links.
     */
    private static String typeOf(Session c) {
        return c.isReplica() ? "replica" : c.inPubSub() ? "pubsub" : "normal";
    }

    private void killOne(Session caller, Session victim) {
        if (victim == caller) {
            caller.closeAfterReply();
        } else {
            ctx.clients().close(victim); // gone from CLIENT LIST at once, not when the close completes
            victim.kill();
        }
    }

    /**
     * {@code CLIENT CANCEL <id>}: the statement client {@code id} is running (on a worker: one on
     * the event loop cannot be running while this command is) stops within a batch of rows and
     * its client gets {@code -ERR query cancelled: ...}, then goes on. As CLIENT UNBLOCK: 1 if a
     * statement was cancelled, 0 if the client runs none or does not exist.
     */
    private void cancel(Session s, CommandArgs a, RespWriter out) {
        if (!a.isLong(2) || a.longValue(2) <= 0) {
            out.error("ERR client-id should be greater than 0");
            return;
        }
        Session victim = ctx.clients().byId(a.longValue(2));
        io.respsql.engine.BackgroundQueries bg = ctx.background();
        boolean done = victim != null && bg != null
                && bg.cancel(victim, "query cancelled: by CLIENT CANCEL from client id=" + s.id());
        out.integer(done ? 1 : 0);
    }

    private void info(Session s, CommandArgs a, RespWriter out) {
        Session.resolveFds(List.of(s));
        StringBuilder sb = new StringBuilder(256);
        s.appendInfoLine(sb, ctx.stats().clockMillis());
        sb.append('\n');
        out.verbatim(sb.toString());
    }

    private static void help(Session s, CommandArgs a, RespWriter out) {
        Replies.help(out, "CLIENT", List.of(
            "GETNAME",
            "    Return the name of the current connection.",
            "ID",
            "    Return the ID of the current connection.",
            "CANCEL <client-id>",
            "    Cancel the statement the client is running; its connection stays open.",
            "INFO",
            "    Return information about the current client connection.",
            "KILL <ip:port>",
            "    Kill connection made from <ip:port>.",
            "KILL <option> <value> [<option> <value> [...]]",
            "    Kill connections. Options are:",
            "    * ADDR (<ip:port>|<unixsocket>:0)",
            "      Kill connections made from the specified address",
            "    * LADDR (<ip:port>|<unixsocket>:0)",
            "      Kill connections made to specified local address",
            "    * TYPE (NORMAL|MASTER|REPLICA|PUBSUB)",
            "      Kill connections by type.",
            "    * USER <username>",
            "      Kill connections authenticated by <username>.",
            "    * ID <client-id>",
            "      Kill connections by client id.",
            "    * SKIPME (YES|NO)",
            "      Skip killing current connection (default: yes).",
            "LIST [TYPE (NORMAL|MASTER|REPLICA|PUBSUB)] [ID <id> [<id> ...]]",
            "    Return information about client connections.",
            "SETINFO <option> <value>",
            "    Set client meta attr. Options are:",
            "    * LIB-NAME: the client lib name.",
            "    * LIB-VER: the client lib version.",
            "SETNAME <name>",
            "    Assign the name <name> to the current connection."));
    }
}
