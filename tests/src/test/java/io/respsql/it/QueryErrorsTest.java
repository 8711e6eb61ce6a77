package io.respsql.it;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.rows;

/**
 * Over the wire, each query construct of issue 10 that can be misused answers one {@code -ERR}
 * naming the token or object at fault, and the connection goes on.
 */
class QueryErrorsTest extends SqlTestBase {
    @BeforeEach
    void tables() {
        s.expectSql("CREATE TABLE emp (id INT PRIMARY KEY, dept INT, name TEXT)", OK);
        s.expectSql("CREATE TABLE dept (id INT PRIMARY KEY, title TEXT)", OK);
        s.expectSql("INSERT INTO emp VALUES (1, 10, 'ann'), (2, 10, 'bob'), (3, 20, 'cy')", OK);
        s.expectSql("INSERT INTO dept VALUES (10, 'eng'), (20, 'ops')", OK);
    }

    @Test
    void namesThatDoNotResolve() {
        s.expectRejectedSql("SELECT id FROM emp, dept", "ERR column 'id' is ambiguous: qualify it with its table name");
        s.expectRejectedSql("SELECT e.nope FROM emp e", "ERR column 'nope' does not exist in table 'e'");
        s.expectRejectedSql("SELECT x.id FROM emp e", "ERR table 'x' is not in the FROM list");
        s.expectRejectedSql("SELECT * FROM emp JOIN nope ON 1 = 1", "ERR table 'nope' does not exist");
        s.expectRejectedSql("SELECT nope FROM emp e JOIN dept d ON d.id = e.dept",
                "ERR column 'nope' does not exist in any table of the FROM list");
        s.expectRejectedSql("SELECT * FROM emp, emp", "ERR table 'emp' appears twice in FROM: give each an alias");
        s.expectRejectedSql("SELECT * FROM emp JOIN dept USING (title)",
                "ERR column 'title' of USING is not in both sides of the join");
        s.expectSql("SELECT a.name, b.name FROM emp a JOIN emp b ON b.id = a.id + 1 ORDER BY 1", rows("ann,bob", "bob,cy"));
    }

    @Test
    void clausesOutOfPlace() {
        s.expectRejectedSql("SELECT id FROM emp ORDER BY 2", "ERR ORDER BY term 2 is out of range: the select list has 1 column(s)");
        s.expectRejectedSql("SELECT dept, COUNT(*) FROM emp GROUP BY 3",
                "ERR GROUP BY term 3 is out of range: the select list has 2 column(s)");
        s.expectRejectedSql("SELECT id FROM emp WHERE COUNT(*) > 1",
                "ERR aggregate COUNT(*) is not allowed here (only in the select list, HAVING and ORDER BY)");
        s.expectRejectedSql("SELECT SUM(COUNT(*)) FROM emp", "ERR aggregate function calls cannot be nested: SUM(COUNT(*))");
        s.expectRejectedSql("SELECT dept FROM emp GROUP BY COUNT(*)", "ERR aggregate functions are not allowed in GROUP BY");
        s.expectRejectedSql("SELECT id FROM emp WHERE ROW_NUMBER() OVER () = 1",
                "ERR window function ROW_NUMBER() OVER () is not allowed here (only in the select list and ORDER BY)");
        s.expectRejectedSql("SELECT id FROM emp LIMIT id", "ERR LIMIT must be an integer constant, not 'id'");
        s.expectRejectedSql("SELECT id FROM emp LIMIT 1 OFFSET -2", "ERR OFFSET must not be negative: -2");
        s.expectRejectedSql("SELECT SUM(name) FROM emp", "ERR SUM needs a numeric argument, name is TEXT");
    }

    @Test
    void subqueriesAndSetOperations() {
        s.expectRejectedSql("SELECT (SELECT id FROM emp)", "ERR scalar subquery returned more than one row");
        s.expectRejectedSql("SELECT id FROM emp WHERE id IN (SELECT id, dept FROM emp)",
                "ERR the subquery of IN must return one column, not 2");
        s.expectRejectedSql("SELECT id FROM emp UNION SELECT id, title FROM dept",
                "ERR each side of UNION must have the same number of columns (1 and 2)");
        s.expectRejectedSql("SELECT id FROM emp EXCEPT SELECT title FROM dept",
                "ERR EXCEPT column 1 has types INT and TEXT that do not match");
        s.expectRejectedSql("SELECT * FROM emp FULL JOIN dept ON dept.id = emp.dept", "ERR FULL JOIN is not supported");
        s.expectSql("SELECT (SELECT title FROM dept WHERE id = e.dept) FROM emp e WHERE e.id = 3", rows("ops"));
    }
}
