package io.respsql.command;

import io.netty.buffer.ByteBuf;
import io.respsql.client.Session;
import io.respsql.engine.SqlEngine;
import io.respsql.protocol.OutcomeReply;
import io.respsql.protocol.RespWriter;
import io.respsql.protocol.TypedRows;
import io.respsql.result.Outcome;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL verbs (CREATE, INSERT, SELECT, ...) and {@code SQL "<statement>"}. A client may split a
 * statement into arguments anywhere, so the arguments are joined back with single spaces and the
 * text handed to the SQL engine; this class never looks inside it.
 *
 * <p>One exception: {@code SELECT <integer>} with nothing else is Redis's database SELECT.
 *
 * <p>{@code QUERY <statement>} runs a statement as {@code SQL} does, but a SELECT replies in the
 * typed form ({@link TypedRows}: column names, column types, one array per row), in RESP2 and
 * RESP3 alike. The SQL verbs keep the 2010 reply under both protocols: clients such as lettuce
 * switch to RESP3 on their own, and a 2010 script must not see its replies change shape.
 */
final class SqlCommands {
    /** Verbs that may grow memory: refused with -OOM above maxmemory (DENYOOM). */
    private static final String[][] GROWING_VERBS = {
        {"create", "Creates a table or an index."},
        {"insert", "Inserts a row."},
        {"update", "Updates rows; replies the number of rows changed."},
    };
    /** Writes that free memory: allowed above maxmemory, so a full server can be emptied. */
    private static final String[][] FREEING_VERBS = {
        {"drop", "Drops a table or an index."},
        {"delete", "Deletes rows; replies the number of rows deleted."},
    };
    private static final String[][] READ_VERBS = {
        {"desc", "Describes a table."},
        {"describe", "Describes a table."},
        {"dump", "Returns a table as INSERT statements."},
        {"scanselect", "Selects rows with a full table scan."},
        {"explain", "Shows how a statement would be executed."},
        {"show", "Lists tables or indexes."},
    };

    private final ServerContext ctx;
    /** Reused join buffer, and the view of it as the statement's text; the event loop is the only caller. */
    private byte[] scratch = new byte[1024];
    private final io.respsql.engine.AsciiText text = new io.respsql.engine.AsciiText();
    /** The typed result encoder, re-pointed at the writer of each QUERY. */
    private final TypedRows typed = new TypedRows();
    private final io.respsql.protocol.Rows2010 rows2010 = new io.respsql.protocol.Rows2010();

    private SqlCommands(ServerContext ctx) {
        this.ctx = ctx;
    }

    static List<CommandSpec> specs(ServerContext ctx) {
        SqlCommands c = new SqlCommands(ctx);
        List<CommandSpec> specs = new ArrayList<>();
        for (String[] v : GROWING_VERBS) {
            specs.add(CommandSpec.builder(v[0], -2).flags(CommandFlags.WRITE | CommandFlags.DENYOOM).group("sql")
                .summary(v[1]).args(arguments(v[0])).handler(c::statement).build());
        }
        for (String[] v : FREEING_VERBS) {
            specs.add(CommandSpec.builder(v[0], -2).flags(CommandFlags.WRITE).group("sql")
                .summary(v[1]).args(arguments(v[0])).handler(c::statement).build());
        }
        for (String[] v : READ_VERBS) {
            specs.add(CommandSpec.builder(v[0], -2).flags(CommandFlags.READONLY).group("sql")
                .summary(v[1]).args(arguments(v[0])).handler(c::statement).build());
        }
        specs.add(CommandSpec.builder("select", -2).flags(CommandFlags.READONLY).group("sql")
            .summary("Selects rows; SELECT <db> selects the database (only 0 exists).").args(arguments("select"))
            .handler(c::select).build());
        specs.add(CommandSpec.builder("prepare", -3).flags(CommandFlags.WRITE).group("sql")
            .summary("Prepares a named statement with ? parameters: PREPARE <name> <statement>.")
            .args(arguments("prepare")).handler(c::statement).build());
        specs.add(CommandSpec.builder("deallocate", 2).flags(CommandFlags.WRITE).group("sql")
            .summary("Forgets a prepared statement.").args(arguments("deallocate")).handler(c::statement).build());
        specs.add(CommandSpec.builder("execute", -2).flags(CommandFlags.WRITE).group("sql")
            .summary("Runs a prepared statement with one argument per parameter: EXECUTE <name> [value ...].")
            .args(arguments("execute")).handler(c::execute).build());
        specs.add(CommandSpec.builder("sql", -2).flags(CommandFlags.WRITE).group("sql")
            .summary("Runs the SQL statement formed by the arguments.").args(arguments("sql")).handler(c::sql).build());
        specs.add(CommandSpec.builder("query", -2).flags(CommandFlags.WRITE).group("sql")
            .summary("Runs the SQL statement formed by the arguments; a SELECT replies column names, types and typed rows.")
            .args(arguments("query")).handler(c::query).build());
        // ---- tx: the transaction statements as bare commands (the same as SQL "BEGIN" ...) ----
        for (String[] v : new String[][] {
            {"begin", "Starts a SQL transaction: BEGIN [ISOLATION LEVEL ...] [READ ONLY|READ WRITE]."},
            {"commit", "Commits the connection's SQL transaction."},
            {"rollback", "Rolls back the connection's SQL transaction, or to a savepoint: ROLLBACK TO <name>."},
            {"savepoint", "Sets a savepoint in the connection's SQL transaction."},
            {"release", "Releases a savepoint of the connection's SQL transaction."}}) {
            specs.add(CommandSpec.builder(v[0], -1).flags(CommandFlags.WRITE).group("sql")
                .summary(v[1]).handler(c::statement).build());
        }
        return specs;
    }

    /**
     * Each verb's syntax as {@code COMMAND DOCS} arguments, from which redis-cli builds the hint
     * it shows while a statement is typed. A condition, a column list or a row list is one
     * {@code string}: the server joins the arguments, so a client may split them anywhere.
     */
    static CommandArg[] arguments(String verb) {
        CommandArg table = CommandArg.string("table");
        CommandArg where = CommandArg.string("condition").token("WHERE").optional();
        CommandArg[] select = {
            CommandArg.string("columns"), table.token("FROM"), where,
            CommandArg.string("order").token("ORDER BY").optional(),
            CommandArg.block("limit", CommandArg.integer("count"), CommandArg.integer("offset").token("OFFSET").optional())
                .token("LIMIT").optional()};
        return switch (verb) {
            case "create" -> new CommandArg[] {CommandArg.oneof("object",
                CommandArg.block("table", CommandArg.pureToken("if-not-exists", "IF NOT EXISTS").optional(),
                    CommandArg.string("table"), CommandArg.string("(column TYPE [PRIMARY KEY], ...)")).token("TABLE"),
                CommandArg.block("index", CommandArg.string("index"), table.token("ON"), CommandArg.string("(column)"))
                    .token("INDEX"))};
            case "insert" -> new CommandArg[] {table.token("INTO"), CommandArg.string("(columns)").optional(),
                CommandArg.string("(values), ...").token("VALUES"), CommandArg.pureToken("return-size", "RETURN SIZE").optional()};
            case "update" -> new CommandArg[] {table, CommandArg.string("assignments").token("SET"), where};
            case "delete" -> new CommandArg[] {table.token("FROM"), where};
            case "drop" -> new CommandArg[] {CommandArg.oneof("object",
                CommandArg.block("table", CommandArg.pureToken("if-exists", "IF EXISTS").optional(), table).token("TABLE"),
                CommandArg.string("index").token("INDEX"))};
            case "desc", "describe", "dump" -> new CommandArg[] {table};
            case "select", "scanselect" -> select;
            case "explain" -> new CommandArg[] {CommandArg.string("statement")};
            case "show" -> new CommandArg[] {CommandArg.oneof("what", CommandArg.pureToken("tables", "TABLES"),
                CommandArg.block("indexes", CommandArg.string("table").token("FROM").optional()).token("INDEXES"))};
            case "sql", "query" -> new CommandArg[] {CommandArg.string("statement")};
            case "prepare" -> new CommandArg[] {CommandArg.string("name"), CommandArg.string("statement")};
            case "deallocate" -> new CommandArg[] {CommandArg.string("name")};
            case "execute" -> new CommandArg[] {CommandArg.string("name"), CommandArg.string("value").optional().multiple()};
            default -> throw new IllegalArgumentException(verb);
        };
    }

    /** The verb is part of the statement: join every argument. */
    private void statement(Session s, CommandArgs a, RespWriter out) {
        CharSequence statement = join(a, 0, out);
        if (statement != null && !transactionStatement(s, statement, out, false)) {
            runInTransaction(s, a, statement, out, false);
        }
    }

    // ---- tx: interactive transactions over RESP ----

    /**
     * A transaction statement (BEGIN, COMMIT, ROLLBACK, SAVEPOINT, SET TRANSACTION, SHOW
     * transaction_isolation, ...) answered for this connection: true when it was one (replied).
     */
    private boolean transactionStatement(Session s, CharSequence statement, RespWriter out, boolean typedForm) {
        if (!io.respsql.engine.Transactions.mayBeControl(statement)) {
            return false;
        }
        io.respsql.engine.Transactions txs = ctx.sql().transactions();
        io.respsql.engine.Transactions.Reply r;
        try {
            String verb = statement.toString().trim().split("\\s+", 2)[0];
            if (ctx.sql().inBlock() && isTransactionVerb(verb)) {
                // inside MULTI/EXEC: the block is the transaction already
                out.error("ERR " + verb.toUpperCase(java.util.Locale.ROOT) + " is not allowed inside MULTI");
                return true;
            }
            r = txs.control(s.sqlTx(), statement.toString());
        } catch (io.respsql.sql.SqlException e) {
            OutcomeReply.write(out, out.mark(), Outcome.failed(e.sqlState(), "ERR " + e.getMessage()));
            return true;
        }
        if (r == null) {
            return false;
        }
        if (r.showName() != null && typedForm) {
            // QUERY: one row of one text column, as PostgreSQL's SHOW
            io.respsql.result.ResultSink sink = typed.on(out);
            sink.columns(io.respsql.result.ResultColumns.of(List.of(r.showName()), List.of("TEXT")), 1);
            sink.beginRow();
            byte[] v = r.showValue().getBytes(StandardCharsets.UTF_8);
            sink.textValue(v, 0, v.length);
            sink.endRow();
            sink.end();
        } else if (r.showName() != null) {
            out.bulk(r.showValue());
        } else if (r.notice() != null) {
            out.simple(r.tag() + " (WARNING: " + r.notice() + ")");
        } else {
            out.ok();
        }
        return true;
    }

    private static boolean isTransactionVerb(String w) {
        return switch (w.toLowerCase(java.util.Locale.ROOT)) {
            case "begin", "start", "commit", "end", "rollback", "abort", "savepoint", "release" -> true;
            default -> false;
        };
    }

    /**
     * Runs a data statement for this connection, inside its transaction when one is open; parks
     * the command (the connection waits, the event loop does not) while another connection's
     * transaction holds uncommitted writes, to run it again when that one ends.
     */
    private void runInTransaction(Session s, CommandArgs a, CharSequence statement, RespWriter out, boolean typed) {
        io.respsql.engine.Transactions txs = ctx.sql().transactions();
        io.respsql.engine.Transactions.Tx t = s.sqlTxOrNull();
        if (t == null && txs.mayRun(null)) {
            run(s, statement, out, typed); // autocommit, no transaction anywhere holds writes: as before
            return;
        }
        long mark = out.mark();
        try {
            // enter() reads the statement (a query? a write?): in this session's dialect, where :: and WITH parse
            boolean entered;
            boolean priorDialect = io.respsql.sql.Dialect.set(s.postgresDialect());
            try {
                entered = txs.enter(t, statement);
            } finally {
                io.respsql.sql.Dialect.set(priorDialect);
            }
            if (!entered) {
                park(s, a, txs);
                return;
            }
        } catch (io.respsql.sql.SqlException e) {
            OutcomeReply.write(out, mark, Outcome.failed(e.sqlState(), "ERR " + e.getMessage()));
            return;
        }
        boolean ok = false;
        try {
            ok = run(s, statement, out, typed);
        } finally {
            io.respsql.sql.SqlException refused = txs.leave(t, ok);
            if (refused != null) {
                out.discardReply(mark);
                OutcomeReply.write(out, mark, Outcome.failed(refused.sqlState(), "ERR " + refused.getMessage()));
            }
        }
    }

    /** Parks the command: the session is blocked and the command kept, run again once the token is free. */
    static void park(Session s, CommandArgs a, io.respsql.engine.Transactions txs) {
        byte[][] copy = new byte[a.count()][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = a.bytes(i);
        }
        s.park(copy);
        s.block();
        txs.park(s::unblock);
    }

    /**
     * Runs a statement's text with the connection's settings (statement timeout, index use) and
     * replies its outcome; QUERY's rows typed.
     */
    private boolean run(Session s, CharSequence statement, RespWriter out, boolean typedForm) {
        long mark = out.mark();
        ctx.sql().sessionTimeout(s.statementTimeoutMs());
        ctx.sql().sequenceSession(s.sequences());
        ctx.sql().access(access(s));
        io.respsql.plan.IndexUse.off(!s.useIndexes());
        boolean prior = io.respsql.sql.Dialect.set(s.postgresDialect());
        Outcome o;
        try {
            o = ctx.sql().execute(statement, typedForm ? typed.on(out) : rows2010.on(out), offload(s, typedForm, out));
        } finally {
            io.respsql.plan.IndexUse.off(false);
            io.respsql.sql.Dialect.set(prior);
        }
        OutcomeReply.write(out, mark, o);
        return o.ok();
    }

    /** The ACL check of the session's statements; null (nothing to check) for an unrestricted user. */
    private io.respsql.engine.StatementAccess access(Session s) {
        io.respsql.acl.AclUser u = s.user() != null ? s.user() : ctx.acl().defaultUser();
        return u.unrestricted() ? null
                : ctx.acl().access(u, false, ctx.sql()::indexOwner, () -> ctx.dispatcher().clientInfo(s));
    }

    /** Where a long query of this request may run instead of the event loop (null: inline). */
    private io.respsql.engine.SqlEngine.Offload offload(Session s, boolean typedForm, RespWriter out) {
        io.respsql.engine.BackgroundQueries bg = ctx.background();
        return bg == null ? null : bg.forRequest(s, io.respsql.protocol.WorkerReplies.of(typedForm, out.protocol()));
    }

    private void select(Session s, CommandArgs a, RespWriter out) {
        if (a.count() == 2 && a.isLong(1)) {
            ConnectionCommands.selectDb(s, a, out);
        } else {
            statement(s, a, out);
        }
    }

    /** {@code EXECUTE <name> [value ...]}: each argument is one value, so a text value may hold spaces. */
    private void execute(Session s, CommandArgs a, RespWriter out) {
        String invalid = invalidUtf8(a, 0);
        if (invalid != null) {
            out.error(invalid); // a value with bad bytes is refused, never stored as U+FFFD
            return;
        }
        io.respsql.engine.Transactions txs = ctx.sql().transactions();
        io.respsql.engine.Transactions.Tx t = s.sqlTxOrNull();
        boolean inTx = t != null || !txs.mayRun(null);
        if (inTx) {
            try {
                if (!txs.enter(t, a.count() > 1 ? "EXECUTE " + a.string(1) : "EXECUTE")) { // mend: its name (a prepared query reads as a query)
                    park(s, a, txs);
                    return;
                }
            } catch (io.respsql.sql.SqlException e) {
                OutcomeReply.write(out, out.mark(), Outcome.failed(e.sqlState(), "ERR " + e.getMessage()));
                return;
            }
        }
        List<String> values = new ArrayList<>(a.count() - 2);
        for (int i = 2; i < a.count(); i++) {
            values.add(a.string(i));
        }
        long mark = out.mark();
        ctx.sql().sessionTimeout(s.statementTimeoutMs());
        ctx.sql().sequenceSession(s.sequences());
        ctx.sql().access(access(s));
        io.respsql.plan.IndexUse.off(!s.useIndexes());
        boolean prior = io.respsql.sql.Dialect.set(s.postgresDialect());
        Outcome o;
        try {
            o = ctx.sql().executePrepared(a.string(1), values, rows2010.on(out), offload(s, false, out));
        } finally {
            io.respsql.plan.IndexUse.off(false);
            io.respsql.sql.Dialect.set(prior);
        }
        if (inTx) {
            io.respsql.sql.SqlException refused = txs.leave(t, o.ok());
            if (refused != null) {
                o = Outcome.failed(refused.sqlState(), "ERR " + refused.getMessage());
            }
        }
        OutcomeReply.write(out, mark, o);
    }

    /** {@code SQL <words...>}: the statement is the arguments after SQL. */
    private void sql(Session s, CommandArgs a, RespWriter out) {
        whole(s, a, out, false);
    }

    /** {@code QUERY <words...>}: as SQL, with a SELECT's rows in the typed form. */
    private void query(Session s, CommandArgs a, RespWriter out) {
        whole(s, a, out, true);
    }

    /** SQL and QUERY: the statement after the verb; the session settings (SET statement_timeout, use_indexes) are answered here. */
    private void whole(Session s, CommandArgs a, RespWriter out, boolean typedForm) {
        CharSequence statement = join(a, 1, out);
        if (statement == null || transactionStatement(s, statement, out, typedForm) || StatementTimeout.handle(s, statement, out, ctx.config())
                || SessionSettings.handle(s, statement, out) || refusedForMemory(statement, out)) {
            return;
        }
        runInTransaction(s, a, statement, out, typedForm);
    }

    /** SQL and QUERY carry any verb, so they are not DENYOOM as commands: the verb decides. */
    private boolean refusedForMemory(CharSequence statement, RespWriter out) {
        if (growsMemory(statement) && ctx.memory() != null && ctx.memory().overLimit()) {
            out.error(SqlEngine.OOM_REPLY);
            return true;
        }
        return false;
    }

    /**
     * The statement a SQL command carries (to check it when queued in MULTI), or null when the
     * command is not a statement ({@code SELECT <db>}). Allocates: not on the execution path.
     */
    static String statementText(CommandSpec top, CommandArgs a) {
        if (!isStatement(top, a)) {
            return null;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = statementStart(top); i < a.count(); i++) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(a.string(i));
        }
        return sb.toString();
    }

    /** SQL and QUERY carry the statement after their name; the other verbs are its first word. */
    private static int statementStart(CommandSpec top) {
        String name = top.fullName();
        return name.equals("sql") || name.equals("query") ? 1 : 0;
    }

    /**
     * The error for a statement command whose text is not valid UTF-8 (checked when it is queued
     * in MULTI, before {@link #statementText} decodes it), or null. Allocates nothing for ASCII.
     */
    static String invalidText(CommandSpec top, CommandArgs a) {
        return isStatement(top, a) ? invalidUtf8(a, statementStart(top)) : null;
    }

    /**
     * PostgreSQL's {@code invalid byte sequence for encoding "UTF8"} error (with {@code ERR}) for
     * the first invalid UTF-8 in the arguments from {@code from} on, its offset counted in the
     * arguments joined with single spaces (the statement as the engine sees it); null when valid.
     */
    static String invalidUtf8(CommandArgs a, int from) {
        long offset = 0;
        for (int i = from; i < a.count(); i++) {
            ByteBuf b = a.get(i);
            int n = b.readableBytes();
            byte[] arr;
            int off;
            if (b.hasArray()) {
                arr = b.array();
                off = b.arrayOffset() + b.readerIndex();
            } else {
                arr = new byte[n];
                b.getBytes(b.readerIndex(), arr);
                off = 0;
            }
            int bad = io.respsql.engine.Utf8.invalidAt(arr, off, off + n);
            if (bad >= 0) {
                return "ERR " + io.respsql.engine.Utf8.error(arr, bad, off + n, offset + bad - off);
            }
            offset += n + 1;
        }
        return null;
    }

    /** Whether the SQL-group command {@code top} carries a statement (not {@code SELECT <db>}). */
    static boolean isStatement(CommandSpec top, CommandArgs a) {
        return "sql".equals(top.group()) && !(top.fullName().equals("select") && a.count() == 2 && a.isLong(1));
    }

    /** Whether the statement's first word is a verb that may grow memory (see {@link #GROWING_VERBS}). */
    static boolean growsMemory(CharSequence statement) {
        // past a leading comment too: "/* x */ INSERT ..." grows memory as INSERT does
        int i = io.respsql.sql.Lexer.skipBlank(statement, 0);
        int n = statement.length();
        int start = i;
        while (i < n && Character.isLetter(statement.charAt(i))) {
            i++;
        }
        for (String[] v : GROWING_VERBS) {
            if (sameIgnoringCase(statement, start, i, v[0])) {
                return true;
            }
        }
        return false;
    }

    /** {@code s[start, end)} equalsIgnoreCase {@code word}, without making a String of it. */
    private static boolean sameIgnoringCase(CharSequence s, int start, int end, String word) {
        if (end - start != word.length()) {
            return false;
        }
        for (int k = 0; k < word.length(); k++) {
            char c = s.charAt(start + k);
            char w = word.charAt(k);
            if (c != w) {
                char cu = Character.toUpperCase(c);
                char wu = Character.toUpperCase(w);
                if (cu != wu && Character.toLowerCase(cu) != Character.toLowerCase(wu)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The arguments from {@code from} on joined with single spaces: a view of the joined bytes
     * when they are all ASCII (valid until the next request: the engine makes a String only when
     * it needs one), else the String decoded from them as UTF-8. Null, with PostgreSQL's error
     * written to {@code out}, when they are not valid UTF-8: nothing of such a statement runs.
     */
    private CharSequence join(CommandArgs a, int from, RespWriter out) {
        int len = 0;
        for (int i = from; i < a.count(); i++) {
            len += a.length(i) + 1;
        }
        if (len > scratch.length) {
            scratch = new byte[Math.max(len, scratch.length * 2)];
        }
        int pos = 0;
        for (int i = from; i < a.count(); i++) {
            if (i > from) {
                scratch[pos++] = ' ';
            }
            ByteBuf b = a.get(i);
            int n = b.readableBytes();
            if (b.hasArray()) { // the parser's argument buffers are heap buffers: a plain array copy
                System.arraycopy(b.array(), b.arrayOffset() + b.readerIndex(), scratch, pos, n);
            } else {
                b.getBytes(b.readerIndex(), scratch, pos, n);
            }
            pos += n;
        }
        if (io.respsql.engine.AsciiText.isAscii(scratch, pos)) {
            return text.set(scratch, pos);
        }
        int bad = io.respsql.engine.Utf8.invalidAt(scratch, 0, pos);
        if (bad >= 0) {
            out.error("ERR " + io.respsql.engine.Utf8.error(scratch, bad, pos, bad));
            return null;
        }
        return new String(scratch, 0, pos, StandardCharsets.UTF_8);
    }
}
