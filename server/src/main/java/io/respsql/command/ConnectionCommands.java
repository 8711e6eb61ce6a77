package io.respsql.command;

import io.respsql.config.Version;
import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;

import java.util.List;

/** PING, ECHO, QUIT, HELLO, and the database form of SELECT. */
final class ConnectionCommands {
    private ConnectionCommands() {
    }

    static List<CommandSpec> specs() {
        return List.of(
            CommandSpec.builder("ping", -1).flags(CommandFlags.FAST).group("connection")
                .summary("Returns the server's liveliness response.").handler(ConnectionCommands::ping).build(),
            CommandSpec.builder("echo", 2).flags(CommandFlags.FAST).group("connection")
                .summary("Returns the given string.").handler((s, a, out) -> out.bulk(a.get(1))).build(),
            CommandSpec.builder("quit", -1).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.LOADING
                    | CommandFlags.STALE).group("connection")
                .summary("Closes the connection.").handler(ConnectionCommands::quit).build(),
            CommandSpec.builder("hello", -1).flags(CommandFlags.FAST | CommandFlags.NO_AUTH | CommandFlags.LOADING
                    | CommandFlags.STALE).group("connection")
                .summary("Handshakes with the server (RESP2 only).").handler(ConnectionCommands::hello).build());
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

    static void ping(Session s, CommandArgs a, RespWriter out) {
        if (a.count() > 2) {
            out.error("ERR wrong number of arguments for 'ping' command");
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
     * {@code HELLO [protover [AUTH user pass] [SETNAME name]]}. Only RESP2 is spoken: {@code HELLO 3}
     * gets {@code -NOPROTO}, which RESP3-first clients take as the cue to fall back to RESP2.
     */
    static void hello(Session s, CommandArgs a, RespWriter out) {
        int next = 1;
        if (a.count() >= 2) {
            if (!a.isLong(1)) {
                out.error("ERR Protocol version is not an integer or out of range");
                return;
            }
            long ver = a.longValue(1);
            next = 2;
            if (ver < 2 || ver > 3) {
                out.error("NOPROTO unsupported protocol version");
                return;
            }
            if (ver == 3) {
                out.error("NOPROTO sorry, this protocol version is not supported");
                return;
            }
        }
        String user = null;
        String setName = null;
        for (int j = next; j < a.count(); j++) {
            int more = a.count() - 1 - j;
            if (a.is(j, "auth") && more >= 2) {
                user = a.string(j + 1);
                j += 2;
            } else if (a.is(j, "setname") && more >= 1) {
                setName = a.string(j + 1);
                j++;
            } else {
                out.error("ERR Syntax error in HELLO option '" + a.string(j) + "'");
                return;
            }
        }
        // No passwords are configured: the default user accepts any password, like Redis's
        // default "nopass" user; there are no other users.
        if (user != null && !user.equals("default")) {
            out.error("WRONGPASS invalid username-password pair or user is disabled.");
            return;
        }
        if (setName != null) {
            if (!validName(setName)) {
                out.error("ERR Client names cannot contain spaces, newlines or special characters.");
                return;
            }
            s.name(setName);
        }
        s.protocol(2);
        out.arrayHeader(14);
        out.bulk("server");
        out.bulk("respsql");
        out.bulk("version");
        out.bulk(Version.REDIS_COMPAT_VERSION);
        out.bulk("proto");
        out.integer(2);
        out.bulk("id");
        out.integer(s.id());
        out.bulk("mode");
        out.bulk("standalone");
        out.bulk("role");
        out.bulk("master");
        out.bulk("modules");
        out.arrayHeader(0);
    }
}
