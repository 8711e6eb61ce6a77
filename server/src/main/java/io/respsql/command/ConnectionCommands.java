package io.respsql.command;

import io.respsql.config.Version;
import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.List;

/** PING, ECHO, QUIT, RESET, AUTH, HELLO, and the database form of SELECT. */
final class ConnectionCommands {
    private ConnectionCommands() {
    }

    static final String WRONGPASS = "WRONGPASS invalid username-password pair or user is disabled.";

    static List<CommandSpec> specs(ServerContext ctx) {
        return List.of(
            CommandSpec.builder("auth", -2).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.SKIP_SLOWLOG | CommandFlags.NOSCRIPT
                    | CommandFlags.LOADING | CommandFlags.STALE).group("connection")
                .summary("Authenticates the connection.").handler((s, a, out) -> auth(ctx, s, a, out)).build(),
            CommandSpec.builder("ping", -1).flags(CommandFlags.FAST | CommandFlags.PUBSUB_CONTEXT).group("connection")
                .summary("Returns the server's liveliness response.").handler(ConnectionCommands::ping).build(),
            CommandSpec.builder("echo", 2).flags(CommandFlags.FAST).group("connection")
                .summary("Returns the given string.").handler((s, a, out) -> out.bulk(a.get(1))).build(),
            CommandSpec.builder("quit", -1).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.LOADING | CommandFlags.NOT_QUEUED
                    | CommandFlags.STALE | CommandFlags.PUBSUB_CONTEXT).group("connection")
                .summary("Closes the connection.").handler(ConnectionCommands::quit).build(),
            CommandSpec.builder("reset", 1).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.NOSCRIPT
                    | CommandFlags.LOADING | CommandFlags.STALE | CommandFlags.PUBSUB_CONTEXT | CommandFlags.NOT_QUEUED)
                .group("connection").summary("Resets the connection.").handler((s, a, out) -> reset(ctx, s, out)).build(),
            CommandSpec.builder("hello", -1).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.SKIP_SLOWLOG | CommandFlags.LOADING
                    | CommandFlags.STALE).group("connection")
                .summary("Handshakes with the Redis server.").handler((s, a, out) -> hello(ctx, s, a, out)).build());
    }

    /** Redis accepts client names and library attributes made of printable ASCII without spaces. */
    static boolean validName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks {@code password} for ACL user {@code user} (the {@code default} user's is requirepass;
     * a {@code nopass} user takes any): the user, or null (the failure is in ACL LOG, as Redis).
     */
    static io.respsql.acl.AclUser checkCredentials(ServerContext ctx, Session s, String user, byte[] password) {
        io.respsql.acl.AclUser u = ctx.acl().authenticate(user, password);
        if (u == null) {
            ctx.acl().log("auth", "toplevel", "AUTH", user,
                    ctx.dispatcher() != null ? ctx.dispatcher().clientInfo(s) : "");
        }
        return u;
    }

    /** The connection is now {@code u}'s. */
    static void logIn(Session s, io.respsql.acl.AclUser u) {
        s.authenticated(true);
        s.user(u.name().equals(io.respsql.acl.Acl.DEFAULT) ? null : u);
    }

    /** {@code AUTH <password>} or {@code AUTH <username> <password>}. */
    static void auth(ServerContext ctx, Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 3) {
            out.error("ERR syntax error");
            return;
        }
        String user;
        byte[] password;
        if (a.count() == 2) {
            if (!ctx.acl().authRequired()) {
                out.error("ERR AUTH <password> called without any password configured for the default user. "
                        + "Are you sure your configuration is correct?");
                return;
            }
            user = "default";
            password = a.bytes(1);
        } else {
            user = a.string(1);
            password = a.bytes(2);
        }
        io.respsql.acl.AclUser u = checkCredentials(ctx, s, user, password);
        if (u != null) {
            logIn(s, u);
            out.ok();
        } else {
            out.error(WRONGPASS);
        }
    }

    static void ping(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 2) {
            out.error("ERR wrong number of arguments for 'ping' command");
        } else if (s.inPubSub() && s.protocol() == 2) {
            // As Redis: a subscriber's PING answer is shaped like a message, so it fits the stream.
            out.arrayHeader(2);
            out.bulk("pong");
            if (a.count() == 2) {
                out.bulk(a.get(1));
            } else {
                out.bulk("");
            }
        } else if (a.count() == 2) {
            out.bulk(a.get(1));
        } else {
            out.simple("PONG");
        }
    }

    static void quit(Session s, CommandArgs a, RespWriter out) {
        out.ok();
        s.closeAfterReply();
    }

    /**
     * {@code RESET}: the connection's state back to a fresh one's, as Redis 7: every subscription
     * dropped, no name, RESP2, database 0, and unauthenticated when a password is required.
     * (With MULTI/EXEC, a transaction in progress is discarded too.)
     */
    static void reset(ServerContext ctx, Session s, RespWriter out) {
        s.endTransaction(); // as Redis: RESET runs at once inside MULTI and discards the block
        s.useIndexes(true);
        s.unwatch();
        ctx.pubsub().unsubscribeAll(s);
        s.name("");
        s.protocol(2);
        s.user(null);
        s.authenticated(!ctx.acl().authRequired());
        out.simple("RESET");
    }

    /** {@code SELECT <db>}: only database 0 exists. */
    static void selectDb(Session s, CommandArgs a, RespWriter out) {
        if (!a.isLong(1)) {
            out.error("ERR value is not an integer or out of range");
        } else if (a.longValue(1) != 0) {
            out.error("ERR DB index is out of range");
        } else {
            out.ok();
        }
    }

    /**
     * {@code HELLO [protover [AUTH user pass] [SETNAME name]]}: switches the connection to RESP2 or
     * RESP3 and replies with the server's description, a map (a flat array under RESP2) with
     * Redis's keys in Redis's order. Without a version the protocol stays as it is.
     */
    static void hello(ServerContext ctx, Session s, CommandArgs a, RespWriter out) {
        int next = 1;
        int ver = s.protocol();
        if (a.count() >= 2) {
            if (!a.isLong(1)) {
                out.error("ERR Protocol version is not an integer or out of range");
                return;
            }
            long v = a.longValue(1);
            next = 2;
            if (v < 2 || v > 3) {
                out.error("NOPROTO unsupported protocol version");
                return;
            }
            ver = (int) v;
        }
        String user = null;
        byte[] password = null;
        String setName = null;
        for (int j = next; j < a.count(); j++) {
            int more = a.count() - 1 - j;
            if (a.is(j, "auth") && more >= 2) {
                user = a.string(j + 1);
                password = a.bytes(j + 2);
                j += 2;
            } else if (a.is(j, "setname") && more >= 1) {
                setName = a.string(j + 1);
                j++;
            } else {
                out.error("ERR Syntax error in HELLO option '" + a.string(j) + "'");
                return;
            }
        }
        // As Redis: the protocol version is checked first, then the credentials, and a failure
        // leaves everything else (name, protocol) unchanged.
        if (user != null) {
            io.respsql.acl.AclUser u = checkCredentials(ctx, s, user, password);
            if (u == null) {
                out.error(WRONGPASS);
                return;
            }
            logIn(s, u);
        }
        if (!s.authenticated() && ctx.acl().authRequired()) {
            out.error("NOAUTH HELLO must be called with the client already authenticated, otherwise the "
                    + "HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and "
                    + "select the RESP protocol version at the same time");
            return;
        }
        if (setName != null) {
            if (!validName(setName)) {
                out.error("ERR Client names cannot contain spaces, newlines or special characters.");
                return;
            }
            s.name(setName);
        }
        // As Redis: the reply itself is already in the new protocol.
        s.protocol(ver);
        out.protocol(ver);
        out.mapHeader(7);
        out.bulk("server");
        out.bulk("respsql");
        out.bulk("version");
        out.bulk(Version.REDIS_COMPAT_VERSION);
        out.bulk("proto");
        out.integer(ver);
        out.bulk("id");
        out.integer(s.id());
        out.bulk("mode");
        out.bulk("standalone");
        out.bulk("role");
        out.bulk(ctx.replication() != null && ctx.replication().isReplica() ? "replica" : "master");
        out.bulk("modules");
        out.arrayHeader(0); // an array in RESP3 too, as in Redis
    }
}
