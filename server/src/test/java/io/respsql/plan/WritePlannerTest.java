package io.respsql.plan;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.respsql.engine.SqlEngine;
import io.respsql.exec.Headroom;
import io.respsql.exec.write.DeleteOperator;
import io.respsql.exec.write.RowSource;
import io.respsql.exec.write.UpdateOperator;
import io.respsql.protocol.RespWriter;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Catalog;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The write planner picks an UPDATE's or DELETE's row shape once, at plan time, from the access
 * path (every row, a key range, a unique-key probe, whatever the operator gives), and the
 * operator it returns runs on that alone: the same plan run again with other data or other
 * parameters still finds exactly the matching rows.
 */
class WritePlannerTest {
    private final Catalog catalog = new Catalog();
    private final SqlEngine engine = new SqlEngine(catalog);
    private final RespWriter writer = new RespWriter();

    private String run(String sql) {
        ByteBuf buf = Unpooled.buffer();
        io.respsql.protocol.EngineReplies.run(engine, sql, writer.target(buf));
        String s = buf.toString(StandardCharsets.UTF_8).replace("\r\n", " ").trim();
        buf.release();
        return s;
    }

    @BeforeEach
    void table() {
        run("CREATE TABLE m (id INT PRIMARY KEY, fk INT, count INT)");
        run("CREATE INDEX m_fk ON m (fk)");
        StringBuilder b = new StringBuilder("INSERT INTO m VALUES ");
        for (int n = 1; n <= 500; n++) {
            b.append(n == 1 ? "" : ", ").append('(').append(n).append(", ").append(n % 10).append(", 4)");
        }
        assertEquals("+OK", run(b.toString()));
    }

    private UpdateOperator update(String sql) {
        return WritePlanner.planUpdate(catalog, (Statement.Update) SqlParser.parse(sql), sql);
    }

    private long count(String where) {
        return Long.parseLong(run("SELECT COUNT(*) FROM m WHERE " + where).substring(1));
    }

    @Test
    void shapesAreChosenAtPlanTime() {
        assertEquals(RowSource.Shape.KEY_RANGE, update("UPDATE m SET count = 7 WHERE fk = 1").rows().shape());
        assertEquals(RowSource.Shape.KEY_RANGE, update("UPDATE m SET count = 7 WHERE id BETWEEN 3 AND 9").rows().shape());
        assertEquals(RowSource.Shape.KEY_RANGE, update("UPDATE m SET count = 7 WHERE id > 3").rows().shape());
        assertEquals(RowSource.Shape.SINGLE_KEY, update("UPDATE m SET count = 7 WHERE id = 3").rows().shape());
        assertEquals(RowSource.Shape.ALL_ROWS, update("UPDATE m SET count = count + 1").rows().shape());
        assertEquals(RowSource.Shape.ROW_LIST, update("UPDATE m SET count = 7 WHERE fk = 1 AND count > 2").rows().shape());
        assertEquals(RowSource.Shape.ROW_LIST, update("UPDATE m SET count = 7 WHERE fk IN (1, 2)").rows().shape());
        assertEquals(RowSource.Shape.ROW_LIST, update("UPDATE m SET count = 7 WHERE count = 4").rows().shape());
    }

    @Test
    void aPlanRunsAgainOnTheDataOfEachRun() {
        UpdateOperator op = update("UPDATE m SET count = 7 WHERE fk = 1");
        IntArrayList buffer = new IntArrayList();
        Headroom headroom = new Headroom();
        assertEquals(50, op.run(catalog, buffer, headroom, null, null, null));
        assertEquals(50, count("count = 7"));
        run("INSERT INTO m VALUES (1001, 1, 4), (1002, 2, 4)"); // the index grows between runs
        assertEquals(51, op.run(catalog, buffer, headroom, null, null, null));
        assertEquals(51, count("count = 7"));
        UpdateOperator inc = update("UPDATE m SET count = count + 1 WHERE id = 1002");
        assertEquals(1, inc.run(catalog, buffer, headroom, null, null, null));
        assertEquals(1, inc.run(catalog, buffer, headroom, null, null, null));
        assertEquals(1, count("id = 1002 AND count = 6"));
        String d = "DELETE FROM m WHERE fk = 2";
        DeleteOperator del = WritePlanner.planDelete(catalog, (Statement.Delete) SqlParser.parse(d), d);
        assertEquals(51, del.run(buffer, null, null, null));
        assertEquals(0, del.run(buffer, null, null, null));
        assertEquals(0, count("fk = 2"));
    }

    @Test
    void cachedPlansSeeEachRunsKeysAndSubqueries() {
        for (int k = 0; k < 10; k++) { // one cached plan, another key each run
            assertEquals(":50", run("UPDATE m SET count = " + (100 + k) + " WHERE fk = " + k));
            assertEquals(50, count("count = " + (100 + k)));
        }
        run("CREATE TABLE u (k INT)");
        run("INSERT INTO u VALUES (1), (2)");
        String q = "SELECT COUNT(*) FROM m WHERE fk IN (SELECT k FROM u WHERE k > 0)";
        assertEquals(":100", run(q));
        assertEquals(":100", run(q)); // the cached plan: its kept context runs again
        run("INSERT INTO u VALUES (3)");
        assertEquals(":150", run(q)); // an uncorrelated subquery is computed once per run, not once per context
        assertEquals(":150", run("UPDATE m SET count = 1 WHERE fk IN (SELECT k FROM u WHERE k > 0)"));
        run("DELETE FROM u WHERE k = 1");
        assertEquals(":100", run("UPDATE m SET count = 2 WHERE fk IN (SELECT k FROM u WHERE k > 0)"));
    }

    @Test
    void aCompositeUniqueIndexProbedByItsFirstColumnIsARangeNotAPoint() {
        run("CREATE TABLE p (a INT, b INT, v INT)");
        run("CREATE UNIQUE INDEX p_ab ON p (a, b)");
        assertEquals("+OK", run("INSERT INTO p VALUES (1, 1, 0), (1, 2, 0), (1, 3, 0), (2, 1, 0)"));
        assertEquals(RowSource.Shape.KEY_RANGE, update("UPDATE p SET v = 5 WHERE a = 1").rows().shape());
        assertEquals(":3", run("UPDATE p SET v = 5 WHERE a = 1"));
        assertEquals(":3", run("SELECT COUNT(*) FROM p WHERE v = 5"));
    }

    @Test
    void nullAndFractionalKeysMatchNothing() {
        assertEquals(":0", run("UPDATE m SET count = 9 WHERE fk = NULL"));
        assertEquals(":0", run("UPDATE m SET count = 9 WHERE fk = 1.5"));
        assertEquals(":0", run("UPDATE m SET count = 9 WHERE id > 3 AND id < 3"));
        assertEquals(":0", run("DELETE FROM m WHERE id = NULL"));
        assertEquals(":10", run("UPDATE m SET count = 9 WHERE id BETWEEN 0.5 AND 10.5"));
        assertEquals(10, count("count = 9"));
    }
}
