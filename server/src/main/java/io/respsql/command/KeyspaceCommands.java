package io.respsql.command;

import io.respsql.client.Session;
import io.respsql.config.Glob;
import io.respsql.protocol.RespWriter;
import io.respsql.storage.Table;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The keyspace as Redis tools walk it: the keys are the tables. {@code SCAN} iterates table names
 * (so {@code redis-cli --scan} lists them), {@code TYPE} answers {@code table}, and
 * {@code MEMORY USAGE} a table's data and index bytes (what {@code redis-cli --memkeys} sums).
 */
final class KeyspaceCommands {
    /** What {@code TYPE} answers for a table and what {@code SCAN ... TYPE} matches. */
    static final String TYPE_NAME = "table";

    private final ServerContext ctx;

    private KeyspaceCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        KeyspaceCommands c = new KeyspaceCommands(ctx);
        int read = CommandFlags.READONLY;
        return List.of(
            CommandSpec.builder("scan", -2).flags(read).group("generic").since("2.8.0")
                .summary("Iterates over the table names.")
                .args(CommandArg.integer("cursor"),
                      CommandArg.of("pattern", "pattern").token("MATCH").optional(),
                      CommandArg.integer("count").token("COUNT").optional(),
                      CommandArg.string("type").token("TYPE").optional())
                .handler(c::scan).build(),
            CommandSpec.builder("type", 2).flags(read | CommandFlags.FAST).group("generic").since("1.0.0")
                .summary("Returns 'table' for a table's name, 'none' otherwise.")
                .args(CommandArg.of("key", "key")).handler(c::type).build(),
            CommandSpec.builder("memory", -2).group("server").since("4.0.0")
                .summary("A container for memory diagnostics commands.")
                .handler((s, a, out) -> Replies.wrongArity(out, ctx.commands().lookup("memory")))
                .subcommand(CommandSpec.builder("usage", -3).flags(read).group("server").since("4.0.0")
                    .summary("Returns the bytes a table's data and indexes take.")
                    .args(CommandArg.of("key", "key"), CommandArg.integer("count").token("SAMPLES").optional())
                    .handler(c::memoryUsage).build())
                .subcommand(CommandSpec.builder("help", 2).flags(CommandFlags.LOADING | CommandFlags.STALE).group("server")
                    .summary("Returns helpful text about the different subcommands.")
                    .handler((s, a, out) -> Replies.help(out, "MEMORY", List.of(
                        "USAGE <table> [SAMPLES <count>]",
                        "    Return the bytes the table's data and indexes take (SAMPLES is accepted and ignored)."))).build())
                .build());
    }

    /**
     * {@code SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]}. Tables are visited in the
     * order of a hash of their (lower-cased) name and the cursor is the hash to continue from, so,
     * as Redis guarantees, a table that exists during the whole iteration is returned, and
     * returned once, whatever is created or dropped meanwhile. A batch never ends between two
     * names of the same hash.
     */
    private void scan(Session s, CommandArgs a, RespWriter out) {
        long cursor = parseCursor(a.string(1));
        if (cursor < 0) {
            out.error("ERR invalid cursor");
            return;
        }
        String pattern = null;
        long count = 10;
        String type = null;
        for (int i = 2; i < a.count(); i += 2) {
            if (i + 1 >= a.count()) {
                Replies.syntaxError(out);
                return;
            }
            if (a.is(i, "match")) {
                pattern = a.string(i + 1);
            } else if (a.is(i, "count")) {
                if (!a.isLong(i + 1)) {
                    Replies.notInteger(out);
                    return;
                }
                count = a.longValue(i + 1);
                if (count < 1) {
                    Replies.syntaxError(out);
                    return;
                }
            } else if (a.is(i, "type")) {
                type = a.string(i + 1);
            } else {
                Replies.syntaxError(out);
                return;
            }
        }
        List<Table> tables = new ArrayList<>(keyspace(s).tables()); // mend: committed tables only
        long[] hashes = new long[tables.size()];
        Integer[] order = new Integer[tables.size()];
        for (int i = 0; i < order.length; i++) {
            hashes[i] = cursorOf(tables.get(i).name());
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingLong((Integer i) -> hashes[i]));
        boolean typeMatches = type == null || type.equalsIgnoreCase(TYPE_NAME);
        List<String> keys = new ArrayList<>();
        long next = 0;
        int visited = 0;
        for (int k = 0; k < order.length; k++) {
            int i = order[k];
            if (hashes[i] < cursor) {
                continue;
            }
            if (visited >= count && hashes[i] != hashes[order[k - 1]]) {
                next = hashes[i];
                break;
            }
            visited++;
            String name = tables.get(i).name();
            if (typeMatches && (pattern == null || Glob.matches(pattern, name, false))) {
                keys.add(name);
            }
        }
        out.arrayHeader(2);
        out.bulk(Long.toString(next));
        out.arrayHeader(keys.size());
        for (String k : keys) {
            out.bulk(k);
        }
    }

    /** A cursor as Redis reads it (an unsigned decimal), or -1 if it is not one we hand out. */
    private static long parseCursor(String s) {
        if (s.isEmpty() || s.length() > 20) {
            return -1;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return -1;
            }
        }
        try {
            return Long.parseLong(s); // our cursors are below 2^62; a larger one is past every table
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE;
        }
    }

    /** 64-bit FNV-1a of the lower-cased name, folded to [1, 2^62): never 0, the cursor that means "start" and "done". */
    static long cursorOf(String tableName) {
        long h = 0xcbf29ce484222325L;
        for (byte b : tableName.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h >>>= 2;
        return h == 0 ? 1 : h;
    }

    /** mend: the tables this session may see: not those of another connection's uncommitted transaction. */
    private io.respsql.storage.ReadableCatalog keyspace(Session s) {
        return ctx.sql().transactions().keyspace(s.sqlTxOrNull());
    }

    /**
     * mend (acl): whether the session's user may touch table {@code name} (its key patterns), as
     * Redis checks a command's keys; false with NOPERM written and the denial in ACL LOG.
     */
    private boolean mayRead(Session s, String name, RespWriter out) {
        io.respsql.acl.Acl acl = ctx.acl();
        if (acl == null) {
            return true;
        }
        io.respsql.acl.AclUser u = s.user() != null ? s.user() : acl.defaultUser();
        String key = name.toLowerCase(Locale.ROOT);
        // as Redis's key specs of TYPE and MEMORY USAGE (RO, no ACCESS): a read or a write pattern will do
        if (u.unrestricted() || u.mayAccess(key, io.respsql.acl.AclUser.READ) || u.mayAccess(key, io.respsql.acl.AclUser.WRITE)) {
            return true;
        }
        acl.log("key", "toplevel", name, u.name(), ctx.dispatcher().clientInfo(s));
        out.error(io.respsql.acl.Acl.NOPERM_KEY);
        return false;
    }

    private void type(Session s, CommandArgs a, RespWriter out) {
        if (!mayRead(s, a.string(1), out)) {
            return;
        }
        out.simple(keyspace(s).table(a.string(1)) != null ? TYPE_NAME : "none");
    }

    /** {@code MEMORY USAGE table [SAMPLES n]}: data and index bytes, as INFO tables counts them; nil for no table. */
    private void memoryUsage(Session s, CommandArgs a, RespWriter out) {
        if (a.count() != 3 && a.count() != 5) {
            Replies.syntaxError(out);
            return;
        }
        if (a.count() == 5) {
            if (!a.is(3, "samples")) {
                Replies.syntaxError(out);
                return;
            }
            if (!a.isLong(4) || a.longValue(4) < 0) {
                Replies.notInteger(out);
                return;
            }
        }
        if (!mayRead(s, a.string(2), out)) {
            return;
        }
        Table t = keyspace(s).table(a.string(2)) == null ? null : ctx.catalog().table(a.string(2));
        if (t == null) {
            out.nullBulk();
        } else {
            out.integer(t.dataBytes() + t.indexBytes());
        }
    }
}
