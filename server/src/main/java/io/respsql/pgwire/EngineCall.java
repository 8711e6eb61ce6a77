package io.respsql.pgwire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.plan.StatementPlanner;
import io.respsql.protocol.RespWriter;
import io.respsql.result.ResultColumns;
import io.respsql.result.ResultSink;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place pgwire calls the SQL engine. Today the engine writes every reply that is not
 * result rows (counts, OK, errors, DESC, SHOW TABLES, EXPLAIN) as RESP into a writer: those go
 * to a scratch writer here, and the few with content (lists of lines) are read back as rows of
 * one text column. When the engine returns everything in its Outcome, only this class changes.
 * Event loop only (one instance per listener).
 */
final class EngineCall {
    private final SqlEngine engine;
    private final RespWriter scratch = new RespWriter();
    private ByteBuf buffer = Unpooled.buffer(256);

    EngineCall(SqlEngine engine) {
        this.engine = engine;
    }

    SqlEngine engine() {
        return engine;
    }

    /**
     * Runs one statement: rows to {@code rows}, a long query possibly to {@code offload}; with
     * {@code timeoutMs} as its statement timeout (-1: the server's). A reply with content that
     * is not rows is added to {@code lines} (one string per line).
     */
    Outcome execute(CharSequence sql, boolean postgres, ResultSink rows, SqlEngine.Offload offload, long timeoutMs,
                    List<String> lines) {
        buffer.clear();
        scratch.target(buffer);
        engine.sessionTimeout(timeoutMs);
        dialect(postgres);
        Outcome o;
        try {
            o = engine.execute(sql, scratch, rows, offload);
        } finally {
            dialect(false);
        }
        buffer = scratch.target();
        if (o.ok() && lines != null && buffer.isReadable()) {
            readLines(buffer, lines);
        }
        if (buffer.capacity() > 1 << 20) {
            buffer = Unpooled.buffer(256); // a DUMP's text is not kept
        }
        return o;
    }

    /**
     * Sets this thread's SQL dialect for the statement about to be parsed and bound: PostgreSQL's
     * ({@code SET sql_dialect}, pgwire's default) or the default one. NOTE for the merge with the
     * SQL-breadth branch (pgsql), whose dialect is a per-connection thread-local applied around each
     * statement as use_indexes is: this body becomes {@code io.respsql.sql.Dialect.postgres(postgres)}.
     * Until then statements are read in the one dialect the engine has.
     */
    static void dialect(boolean postgres) {
    }

    /** The columns a query would give, planned (not run); null when it is not a query. */
    ResultColumns describe(String sql, boolean postgres) {
        dialect(postgres);
        try {
            Statement st = SqlParser.parse(sql);
            if (st instanceof Statement.QueryStatement q) {
                return StatementPlanner.plan(engine.catalog(), q.query(), sql).columns();
            }
            return null;
        } finally {
            dialect(false);
        }
    }

    /** The error text of an outcome as a client should see it: without RESP's {@code ERR } prefix. */
    static String message(Outcome o) {
        String e = o.error();
        if (e == null) {
            return "";
        }
        return e.startsWith("ERR ") ? e.substring(4) : e;
    }

    /** Bulk strings, simple strings other than OK, and arrays of them (nested ones joined with " | "). */
    private static void readLines(ByteBuf b, List<String> lines) {
        int type = b.getByte(b.readerIndex());
        if (type == '+') {
            b.skipBytes(1);
            String s = line(b);
            if (!s.equals("OK")) {
                lines.add(s);
            }
        } else if (type == '$' || type == '*' || type == '=') {
            Object v = read(b);
            if (v instanceof List<?> l) {
                for (Object e : l) {
                    lines.add(text(e));
                }
            } else if (v != null) {
                lines.add(text(v));
            }
        }
    }

    private static String text(Object v) {
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object e : l) {
                parts.add(text(e));
            }
            return String.join(" | ", parts);
        }
        return v == null ? "" : v.toString();
    }

    private static Object read(ByteBuf b) {
        int type = b.readByte();
        String head = line(b);
        switch (type) {
            case '$', '=' -> {
                int n = Integer.parseInt(head);
                if (n < 0) {
                    return null;
                }
                String s = b.readCharSequence(n, StandardCharsets.UTF_8).toString();
                b.skipBytes(2);
                return type == '=' && s.startsWith("txt:") ? s.substring(4) : s;
            }
            case '*' -> {
                int n = Integer.parseInt(head);
                List<Object> l = new ArrayList<>(Math.max(n, 0));
                for (int i = 0; i < n; i++) {
                    l.add(read(b));
                }
                return l;
            }
            default -> {
                return head;
            }
        }
    }

    private static String line(ByteBuf b) {
        int start = b.readerIndex();
        int end = b.indexOf(start, b.writerIndex(), (byte) '\r');
        String s = b.toString(start, end - start, StandardCharsets.UTF_8);
        b.readerIndex(end + 2);
        return s;
    }
}
