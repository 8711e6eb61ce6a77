package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.protocol.RespWriter;
import io.respsql.replication.Replication;

import java.util.List;

/** REPLICAOF (SLAVEOF), REPLCONF, PSYNC, ROLE and WAIT, with Redis's replies; the work is in {@link Replication}. */
final class ReplicationCommands {
    private final ServerContext ctx;

    private ReplicationCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        ReplicationCommands c = new ReplicationCommands(ctx);
        int admin = CommandFlags.ADMIN | CommandFlags.NOSCRIPT | CommandFlags.STALE;
        return List.of(
            CommandSpec.builder("replicaof", 3).flags(admin).group("server")
                .summary("Configures a server as replica of another, or promotes it to a master.").handler(c::replicaof).build(),
            CommandSpec.builder("slaveof", 3).flags(admin).group("server")
                .summary("Sets a Redis server as a replica of another, or promotes it to being a master.")
                .handler(c::replicaof).build(),
            CommandSpec.builder("replconf", -1).flags(admin | CommandFlags.LOADING | CommandFlags.NO_REPLY).group("server")
                .summary("An internal command for configuring the replication stream.").handler(c::replconf).build(),
            CommandSpec.builder("psync", -3).flags(admin | CommandFlags.NO_REPLY | CommandFlags.NO_MULTI).group("server")
                .summary("An internal command used in replication.").handler(c::psync).build(),
            CommandSpec.builder("role", 1).flags(CommandFlags.NOSCRIPT | CommandFlags.LOADING | CommandFlags.STALE
                    | CommandFlags.FAST).group("server")
                .summary("Returns the replication role.").handler(c::role).build(),
            CommandSpec.builder("wait", 3).flags(CommandFlags.NO_REPLY).group("generic")
                .summary("Blocks until the asynchronous replication of all preceding write commands sent by the "
                        + "connection is completed.").handler(c::waitCommand).build());
    }

    private Replication repl() {
        return ctx.replication();
    }

    /** {@code REPLICAOF host port} or {@code REPLICAOF NO ONE}. */
    private void replicaof(Session s, CommandArgs a, RespWriter out) {
        if (a.is(1, "no") && a.is(2, "one")) {
            repl().promote();
            out.ok();
            return;
        }
        if (!a.isLong(2) || a.longValue(2) < 1 || a.longValue(2) > 65535) {
            out.error("ERR Invalid master port");
            return;
        }
        out.simple(repl().replicaOf(a.string(1), (int) a.longValue(2)));
    }

    /** {@code REPLCONF listening-port <port> | capa <capa> ... | ACK <offset> | GETACK *}. */
    private void replconf(Session s, CommandArgs a, RespWriter out) {
        if (a.count() % 2 == 0) {
            Replies.syntaxError(out);
            return;
        }
        for (int i = 1; i < a.count(); i += 2) {
            if (a.is(i, "ack")) {
                if (a.isLong(i + 1)) {
                    repl().ack(s, a.longValue(i + 1));
                }
                return; // ACK is never answered
            } else if (a.is(i, "listening-port")) {
                if (!a.isLong(i + 1) || a.longValue(i + 1) < 0 || a.longValue(i + 1) > 65535) {
                    out.error("ERR value is out of range");
                    return;
                }
                repl().listeningPort(s, (int) a.longValue(i + 1));
            } else if (!a.is(i, "capa") && !a.is(i, "ip-address") && !a.is(i, "rdb-only")
                    && !a.is(i, "rdb-filter-only") && !a.is(i, "getack")) {
                out.error("ERR Unrecognized REPLCONF option: " + a.string(i));
                return;
            }
        }
        out.ok();
    }

    /** {@code PSYNC <replid> <offset>}. */
    private void psync(Session s, CommandArgs a, RespWriter out) {
        if (a.count() != 3 || !a.isLong(2)) {
            out.error("ERR syntax error: PSYNC <replid> <offset>");
            return;
        }
        repl().psync(s, a.string(1), a.longValue(2), out);
    }

    private void role(Session s, CommandArgs a, RespWriter out) {
        repl().role(out);
    }

    /** {@code WAIT numreplicas timeout}. */
    private void waitCommand(Session s, CommandArgs a, RespWriter out) {
        if (!a.isLong(1) || a.longValue(1) < 0 || a.longValue(1) > Integer.MAX_VALUE) {
            out.error("ERR value is out of range, must be positive");
            return;
        }
        if (!a.isLong(2) || a.longValue(2) < 0) {
            out.error("ERR timeout is negative");
            return;
        }
        // Inside EXEC the reply is an element of the block's array: it cannot come later.
        repl().waitFor(s, (int) a.longValue(1), a.longValue(2), !ctx.sql().inBlock(), out);
    }
}
