package io.respsql.sql;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.result.Outcome;
import io.respsql.engine.SqlEngine;
import io.respsql.plan.WritePlanner;
import io.respsql.plan.StatementPlanner;
import io.respsql.protocol.EngineReplies;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Coverage-guided fuzzing of the SQL front end (Jazzer; {@code mvn test} replays the seed corpus in
 * {@code SqlFuzzTestInputs/parseAndBind/}, {@code scripts/fuzz.sh} fuzzes): the lexer, the parser,
 * and binding and planning against a small fixed catalog of tables with indexes and a view. Any
 * text gives a statement or a clean {@link SqlException}, never another exception and never a
 * statement that does not end. Nothing is executed, so the catalog stays the same for every
 * input (a finding replays exactly); a schema statement runs against a fresh copy of it instead.
 */
class SqlFuzzTest {
    /** The fixed schema: the 2010 scripts' tables, a sqllogictest table, every column type, indexes of each kind, a view. */
    private static final String[] FIXTURE = {
            "CREATE TABLE employee (id INT PRIMARY KEY, division INT, salary FLOAT, name TEXT, hobby TEXT)",
            "CREATE INDEX employee:division:index ON employee (division)",
            "CREATE INDEX employee_name ON employee (name DESC, salary)",
            "CREATE TABLE division (id INT PRIMARY KEY, name TEXT, location TEXT)",
            "CREATE UNIQUE INDEX division_name ON division (name)",
            "CREATE TABLE message_list (id int primary key, fk int, count INT)",
            "CREATE INDEX message_list:fk:index ON message_list (fk)",
            "CREATE TABLE t1 (a INTEGER, b INTEGER, c INTEGER, d INTEGER, e INTEGER)",
            "CREATE INDEX t1_ab ON t1 (a, b DESC)",
            "CREATE TABLE ev (id BIGINT PRIMARY KEY, ok BOOLEAN, day DATE, at TIMESTAMP, note TEXT NOT NULL DEFAULT 'n/a')",
            "CREATE INDEX ev_at ON ev (at)",
            "CREATE VIEW rich AS SELECT e.name, e.salary, d.name AS dname FROM employee e JOIN division d ON d.id = e.division "
                    + "WHERE e.salary > 1000",
            "INSERT INTO employee VALUES (1, 11, 15000.99, 'marieanne', 'yachting'), (2, 22, 500.5, 'bob', NULL), "
                    + "(3, 22, 7000, 'carla', 'painting')",
            "INSERT INTO division VALUES (11, 'sales', 'here'), (22, 'tech', NULL)",
            "INSERT INTO message_list VALUES (1, 1, 4), (2, 1, 4), (3, 2, 7)",
            "INSERT INTO t1 VALUES (104, 100, 102, 101, 103), (NULL, 1, 2, 3, 4), (107, 105, 106, 108, 109)",
            "INSERT INTO ev VALUES (1, TRUE, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', 'a'), (2, NULL, NULL, NULL, 'b')",
    };

    private static final SqlEngine ENGINE = fixture();
    private static final Catalog CATALOG = ENGINE.catalog();
    private static final int FIXTURE_TABLES = CATALOG.tables().size();

    private static SqlEngine fixture() {
        SqlEngine engine = new SqlEngine(new Catalog());
        for (String sql : FIXTURE) {
            String error = run(engine, sql);
            if (error != null) {
                throw new IllegalStateException(sql + ": " + error);
            }
        }
        return engine;
    }

    /** Runs one statement; returns its error reply, or null. */
    private static String run(SqlEngine engine, String sql) {
        ByteBuf buf = Unpooled.buffer();
        try {
            Outcome o = EngineReplies.run(engine, sql, new RespWriter().target(buf));
            return o.ok() ? null : o.error();
        } finally {
            buf.release();
        }
    }

    @FuzzTest(maxDuration = "30s")
    @DictionaryFile(resourcePath = "/io/respsql/sql/sql.dict") // words, so mutations make statements, not only syntax errors
    void parseAndBind(byte[] input) {
        String sql = new String(input, StandardCharsets.UTF_8);
        try {
            Lexer.tokenize(sql);
        } catch (SqlException e) {
            clean(e);
        }
        try {
            SqlParser.parseScript(sql);
        } catch (SqlException e) {
            clean(e);
        }
        Statement st;
        try {
            st = SqlParser.parse(sql);
        } catch (SqlException e) {
            clean(e);
            return;
        }
        try {
            bind(st instanceof Statement.Explain ex ? ex.statement() : st, sql);
        } catch (SqlException e) {
            clean(e);
        }
        assertEquals(FIXTURE_TABLES, CATALOG.tables().size(), "planning changed the catalog");
    }


    /** Binds and plans a statement as the engine would before running it (EXPLAIN's path). */
    private static void bind(Statement st, String sql) {
        if (st instanceof Statement.QueryStatement q) {
            StatementPlanner.planQuery(CATALOG, q.query(), sql).explain();
            StatementPlanner.plan(CATALOG, q.query(), sql);
        } else if (st instanceof Statement.Update u) {
            WritePlanner.explainUpdate(CATALOG, u, sql);
        } else if (st instanceof Statement.Delete d) {
            WritePlanner.explainDelete(CATALOG, d, sql);
        } else if (st instanceof Statement.Insert i) {
            WritePlanner.explainInsert(CATALOG, i, sql);
        } else if (!(st instanceof Statement.Explain)) {
            // Schema statements and reports change or read the catalog: run them on a copy of it.
            String error = run(fixture(), sql);
            if (error != null && error.contains("internal error")) {
                fail(error);
            }
        }
    }

    /** A clean error has a message for the client and a SQLSTATE code (five characters) for programs. */
    private static void clean(SqlException e) {
        assertFalse(e.getMessage() == null || e.getMessage().isEmpty(), "an error without a message");
        assertTrue(e.sqlState() != null && e.sqlState().length() == 5, "SQLSTATE '" + e.sqlState() + "' of: " + e.getMessage());
    }
}
