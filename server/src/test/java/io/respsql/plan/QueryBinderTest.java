package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.sql.SqlParser;
import io.respsql.sql.tree.Statement;
import io.respsql.storage.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The binder alone: relation numbering, scopes, correlation, grouping, output names and types. */
class QueryBinderTest {
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void tables() {
        Table a = f.table("a", 0, "id int", "x float", "s text");
        f.row(a, 1, 1.5, "p");
        Table b = f.table("b", -1, "id int", "aid int");
        f.row(b, 7, 1);
    }

    private LogicalQuery bind(QueryBinder binder, String sql) {
        Statement.QueryStatement q = (Statement.QueryStatement) SqlParser.parse(sql);
        return binder.bindQuery(q.query(), null);
    }

    private LogicalQuery bind(String sql) {
        return bind(new QueryBinder(f.catalog, sql), sql);
    }

    @Test
    void relationsAreNumberedOnceAcrossBlocks() {
        String sql = "SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE b.aid = a.id) AND id IN (SELECT aid FROM b)";
        QueryBinder binder = new QueryBinder(f.catalog, sql);
        LogicalQuery.Block q = (LogicalQuery.Block) bind(binder, sql);
        assertEquals(3, binder.relationCount());
        assertEquals(0, q.relations.get(0).number);
        assertEquals(0, q.outerRefs, "the top block reads no enclosing block");
        // The EXISTS conjunct reads a (its correlation) and nothing else of this block.
        assertEquals(1L, q.where.get(0).rels);
    }

    @Test
    void correlatedReferencesMarkEveryBlockInBetween() {
        String sql = "SELECT id FROM a WHERE EXISTS (SELECT 1 FROM b WHERE EXISTS (SELECT 1 FROM b b2 WHERE b2.aid = a.id))";
        LogicalQuery.Block q = (LogicalQuery.Block) bind(sql);
        assertEquals(1L, q.where.get(0).rels, "the middle block is correlated through its own subquery");
    }

    @Test
    void outputNamesAndTypes() {
        LogicalQuery q = bind("SELECT a.id, x AS y, s || 'q', COUNT(*) FROM a GROUP BY a.id, x, s");
        assertEquals(List.of("id", "y", "s || 'q'", "COUNT(*)"), q.names);
        assertEquals("INT", SqlTypes.resultName(q.outputs.get(0).type()));
        assertEquals("FLOAT", SqlTypes.resultName(q.outputs.get(1).type()));
        assertEquals("TEXT", SqlTypes.resultName(q.outputs.get(2).type()));
        assertEquals("BIGINT", SqlTypes.resultName(q.outputs.get(3).type()));
        assertEquals(List.of("id", "x", "s", "id", "aid"), bind("SELECT * FROM a, b").names);
        assertEquals(List.of("id", "aid"), bind("SELECT b.* FROM a, b").names);
    }

    @Test
    void groupKeysMatchStructurally() {
        LogicalQuery.Block q = (LogicalQuery.Block) bind("SELECT a.id + 1, SUM(x), SUM(x) * 2 FROM a GROUP BY id + 1");
        assertEquals(1, q.groupKeys.size());
        assertEquals(1, q.aggregates.size(), "one SUM(x) for both uses");
        assertEquals(1L << q.group.number, q.outputs.get(0).relations());
        assertEquals(1L << q.group.number, q.outputs.get(2).relations());
    }

    @Test
    void unionChecksColumnsAndTypes() {
        SqlException e = assertThrows(SqlException.class, () -> bind("SELECT id FROM a UNION SELECT id, aid FROM b"));
        assertEquals("each side of UNION must have the same number of columns (1 and 2)", e.getMessage());
        assertEquals("FLOAT", SqlTypes.resultName(bind("SELECT id FROM a UNION SELECT x FROM a").outputs.get(0).type()));
    }

    @Test
    void errorsNameWhatIsWrong() {
        assertEquals("column 'id' is ambiguous: qualify it with its table name",
                assertThrows(SqlException.class, () -> bind("SELECT id FROM a, b")).getMessage());
        assertEquals("column 'zz' does not exist in any table of the FROM list",
                assertThrows(SqlException.class, () -> bind("SELECT zz FROM a, b")).getMessage());
        assertEquals("ORDER BY term 3 is out of range: the select list has 1 column(s)",
                assertThrows(SqlException.class, () -> bind("SELECT id FROM a ORDER BY 3")).getMessage());
        assertTrue(assertThrows(SqlException.class, () -> bind("SELECT (SELECT id, s FROM a)")).getMessage()
                .startsWith("the subquery of a scalar subquery must return one column"));
        assertEquals("LIMIT must be an integer constant, not 'id'",
                assertThrows(SqlException.class, () -> bind("SELECT id FROM a LIMIT id")).getMessage());
    }
}
