package io.respsql.plan;

import io.respsql.sql.SqlException;
import io.respsql.storage.Table;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Binding and planning of queries, checked by their rows and their EXPLAIN lines. */
class QueryPlannerTest {
    private final QueryFixture f = new QueryFixture();

    @BeforeEach
    void data() {
        Table emp = f.table("emp", 0, "id int", "dept int", "salary float", "name text");
        f.index(emp, "emp:dept:index", "dept");
        f.row(emp, 1, 10, 100.5, "ann");
        f.row(emp, 2, 10, 200.0, "bob");
        f.row(emp, 3, 20, 300.0, "cy");
        f.row(emp, 4, 30, 50.0, "dee");
        f.row(emp, 5, 20, 75.0, "marie");
        Table dept = f.table("dept", 0, "id int", "title text");
        f.row(dept, 10, "eng");
        f.row(dept, 20, "ops");
        f.row(dept, 40, "empty");
        Table n = f.table("n", -1, "a int", "b int");
        f.row(n, 1, 1);
        f.row(n, 1, 2);
        f.row(n, 2, null);
    }

    private void rows(String sql, String... expected) {
        assertEquals(List.of(expected), f.rows(sql), sql);
    }

    private void error(String sql, String message) {
        SqlException e = assertThrows(SqlException.class, () -> f.rows(sql), sql);
        assertEquals(message, e.getMessage(), sql);
    }

    @Test
    void accessPathsAreChosenFromTheConditions() {
        assertEquals(List.of("primary key probe on emp using emp:id:pk (id = 3)"), f.explain("SELECT * FROM emp WHERE id = 3"));
        assertEquals(List.of("primary key probe on emp using emp:id:pk (id IN (4, 2))"),
                f.explain("SELECT * FROM emp WHERE id IN (4, 2)"));
        assertEquals(List.of("primary key range on emp using emp:id:pk (id >= 2 AND id < 4)"),
                f.explain("SELECT * FROM emp WHERE id >= 2 AND id < 4"));
        assertEquals(List.of("no rows can match (id = 2.5)"), f.explain("SELECT * FROM emp WHERE id = 2.5"));
        assertTrue(f.explain("SELECT * FROM emp WHERE dept = 20 AND salary > 100").get(0)
                .startsWith("index probe on emp using emp:dept:index (dept = 20); filter "));
        assertTrue(f.explain("SELECT * FROM emp WHERE salary > 100").get(0).startsWith("full scan of emp; filter "));
        assertEquals(List.of("primary key range on emp using emp:id:pk (all keys), in descending key order"),
                f.explain("SELECT * FROM emp ORDER BY id DESC"));
    }

    @Test
    void rowsThroughEachAccessPath() {
        rows("SELECT name FROM emp WHERE id = 3", "cy");
        rows("SELECT name FROM emp WHERE id IN (4, 2, 4)", "bob", "dee");
        rows("SELECT id FROM emp WHERE id > 1 AND id <= 3", "2", "3");
        rows("SELECT id FROM emp WHERE id BETWEEN 2 AND 3", "2", "3");
        rows("SELECT id FROM emp WHERE dept = 20", "3", "5");
        rows("SELECT id FROM emp WHERE id > 3.5", "4", "5");
        rows("SELECT id FROM emp WHERE id = 2.5");
        rows("SELECT id FROM emp ORDER BY id DESC LIMIT 2", "5", "4");
        rows("SELECT id FROM emp WHERE id >= 2 LIMIT 2 OFFSET 1", "3", "4");
        rows("SELECT id FROM emp WHERE dept = 000000000010", "1", "2");
        rows("SELECT id FROM emp WHERE id >= 9.3e18");
        rows("SELECT id FROM emp WHERE id <= -9.3e18");
        rows("SELECT id FROM emp WHERE id > -1e30 AND id < 1.5", "1");
        rows("SELECT id FROM emp WHERE salary > 200 OR salary < 75", "3", "4");
        rows("SELECT id FROM emp WHERE id = 1 OR dept = 30 OR id IN (1, 2)", "1", "2", "4");
    }

    @Test
    void unquotedTextOfThe2010Dialect() {
        rows("SELECT id FROM emp WHERE name = marie", "5");
        rows("SELECT id FROM emp WHERE name IN (bob,dee)", "2", "4");
        error("SELECT id FROM emp WHERE id = nope", "column 'nope' does not exist in table 'emp'");
    }

    @Test
    void namesResolveOrFailClearly() {
        error("SELECT nope FROM emp", "column 'nope' does not exist in table 'emp'");
        error("SELECT id FROM emp, dept", "column 'id' is ambiguous: qualify it with its table name");
        error("SELECT x.id FROM emp", "table 'x' is not in the FROM list");
        error("SELECT * FROM nope", "table 'nope' does not exist");
        error("SELECT emp.nope FROM emp", "column 'nope' does not exist in table 'emp'");
        rows("SELECT e.name AS who FROM emp e WHERE e.id = 1", "ann");
        rows("SELECT e.name who FROM emp AS e WHERE e.id = 1", "ann");
        assertEquals("who", f.plan("SELECT name AS who FROM emp").columns().name(0));
        assertEquals("name", f.plan("SELECT e.name FROM emp e").columns().name(0));
        assertEquals("id + 1", f.plan("SELECT id + 1 FROM emp").columns().name(0));
    }

    @Test
    void joins() {
        rows("SELECT emp.name, dept.title FROM emp, dept WHERE emp.dept = dept.id AND emp.id <= 3",
                "ann|eng", "bob|eng", "cy|ops");
        List<String> plan = f.explain("SELECT emp.name, dept.title FROM dept, emp WHERE emp.dept = dept.id AND dept.id = 20");
        assertEquals("join order: dept -> emp", plan.get(0), plan.toString());
        assertTrue(plan.get(2).startsWith("index probe on emp using emp:dept:index"), plan.toString());
        rows("SELECT d.title, e.name FROM dept d JOIN emp e ON e.dept = d.id WHERE d.id = 20", "ops|cy", "ops|marie");
        rows("SELECT d.title, e.name FROM dept d LEFT JOIN emp e ON e.dept = d.id WHERE d.id = 40", "empty|NULL");
        rows("SELECT d.title, e.name FROM emp e RIGHT JOIN dept d ON e.dept = d.id WHERE e.id IS NULL", "empty|NULL");
        rows("SELECT COUNT(*) FROM emp a, emp b, n", "count=75");
        rows("SELECT a.id, b.id FROM emp a, emp b WHERE a.id = b.id + 1 AND b.id >= 3", "4|3", "5|4");
        rows("SELECT n1.b FROM n n1, n n2 WHERE n1.a = n2.b AND n2.a = 2");
        rows("SELECT n1.b, n2.b FROM n n1, n n2 WHERE n1.b = n2.a", "1|1", "1|2", "2|NULL");
    }

    @Test
    void subqueries() {
        rows("SELECT (SELECT title FROM dept WHERE id = 20)", "ops");
        rows("SELECT name FROM emp WHERE dept IN (SELECT id FROM dept WHERE title = ops)", "cy", "marie");
        rows("SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept AND d.title = 'eng')", "ann", "bob");
        rows("SELECT name FROM emp e WHERE NOT EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept)", "dee");
        rows("SELECT name, (SELECT title FROM dept WHERE id = emp.dept) FROM emp WHERE id >= 4", "dee|NULL", "marie|ops");
        rows("SELECT id FROM emp WHERE dept NOT IN (SELECT b FROM n)");
        rows("SELECT a FROM n WHERE 1 IN (SELECT b FROM n)", "1", "1", "2");
        error("SELECT (SELECT id FROM emp)", "scalar subquery returned more than one row");
        rows("SELECT x.name FROM (SELECT name, dept FROM emp WHERE dept = 10) AS x WHERE x.name <> 'ann'", "bob");
        rows("SELECT t.k FROM (SELECT id AS k FROM emp) t WHERE t.k > 4", "5");
    }

    @Test
    void explainShowsSubqueriesAndJoinSteps() {
        List<String> plan = f.explain("SELECT name FROM emp e WHERE EXISTS (SELECT 1 FROM dept d WHERE d.id = e.dept)");
        assertTrue(plan.contains("subquery (correlated: run per outer row):"), plan.toString());
        assertTrue(plan.get(plan.size() - 1).startsWith("  primary key probe on dept using dept:id:pk"), plan.toString());
        assertEquals(List.of("union of [primary key probe on emp using emp:id:pk (id = 1)] + [index probe on emp using emp:dept:index (dept = 30)]"),
                f.explain("SELECT id FROM emp WHERE id = 1 OR dept = 30"));
    }

    @Test
    void viewsAreExpandedWhereNamed() {
        f.catalog.addView(new io.respsql.storage.ViewDef("rich", List.of(), "SELECT name, salary FROM emp WHERE salary >= 200"));
        f.catalog.addView(new io.respsql.storage.ViewDef("pairs", List.of("who", "what"),
                "SELECT e.name, d.title FROM emp e JOIN dept d ON d.id = e.dept"));
        rows("SELECT name FROM rich ORDER BY salary DESC", "cy", "bob");
        rows("SELECT r.name FROM rich r, pairs p WHERE p.who = r.name AND p.what = 'ops'", "cy");
        rows("SELECT COUNT(*) FROM pairs WHERE what = eng", "count=2");
        error("SELECT nope FROM rich", "column 'nope' does not exist in table 'rich'");
    }

    @Test
    void outerJoinsKeepTheirRows() {
        rows("SELECT d.title, COUNT(e.id) FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.title ORDER BY 1",
                "empty|0", "eng|2", "ops|2");
        rows("SELECT e.name FROM emp e LEFT JOIN dept d ON d.id = e.dept AND d.title = 'eng' WHERE d.id IS NULL ORDER BY 1",
                "cy", "dee", "marie");
        rows("SELECT n1.a, n2.b FROM n n1 LEFT JOIN n n2 ON n2.b = n1.a + 5 ORDER BY 1", "1|NULL", "1|NULL", "2|NULL");
    }

    @Test
    void windowFunctions() {
        rows("SELECT name, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY salary DESC) FROM emp ORDER BY id",
                "ann|2", "bob|1", "cy|1", "dee|1", "marie|2");
        rows("SELECT dept, SUM(salary), RANK() OVER (ORDER BY SUM(salary) DESC) FROM emp GROUP BY dept ORDER BY 3",
                "20|375.0|1", "10|300.5|2", "30|50.0|3");
        rows("SELECT id, SUM(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM emp ORDER BY s DESC LIMIT 2",
                "5|9", "4|7");
        rows("SELECT x.name FROM (SELECT name, RANK() OVER (ORDER BY salary) AS r FROM emp) x WHERE x.r = 1", "dee");
        error("SELECT id FROM emp WHERE ROW_NUMBER() OVER () = 1",
                "window function ROW_NUMBER() OVER () is not allowed here (only in the select list and ORDER BY)");
    }

    @Test
    void withoutFromAndValues() {
        rows("SELECT 1 + 2, 'a'", "3|a");
        rows("SELECT 1 WHERE 1 = 0");
        rows("VALUES (1, 'x'), (2, 'y')", "1|x", "2|y");
    }

    @Test
    void countStarIsTheBareInteger() {
        rows("SELECT COUNT(*) FROM emp", "count=5");
        rows("SELECT COUNT(*) FROM emp WHERE dept = 20", "count=2");
        rows("SELECT COUNT(*) FROM n WHERE b IS NULL", "count=1");
    }

    @Test
    void groupingAndOrdering() {
        rows("SELECT dept, COUNT(*), SUM(salary) FROM emp GROUP BY dept ORDER BY dept", "10|2|300.5", "20|2|375.0", "30|1|50.0");
        rows("SELECT dept AS d, MAX(id) FROM emp GROUP BY d HAVING COUNT(*) > 1 ORDER BY 2 DESC", "20|5", "10|2");
        rows("SELECT a + 1, COUNT(b) FROM n GROUP BY a + 1 ORDER BY a + 1", "2|2", "3|0");
        rows("SELECT dept, name, COUNT(*) FROM emp WHERE dept = 30 GROUP BY dept", "30|dee|1");
        rows("SELECT 1 FROM emp WHERE 1 IN () OR 2 NOT IN ()", "1", "1", "1", "1", "1");
        rows("SELECT DISTINCT dept FROM emp ORDER BY dept DESC", "30", "20", "10");
        rows("SELECT dept, (SELECT title FROM dept d WHERE d.id = emp.dept) FROM emp GROUP BY dept ORDER BY dept",
                "10|eng", "20|ops", "30|NULL");
        rows("SELECT name FROM emp ORDER BY salary DESC LIMIT 2", "cy", "bob");
        rows("SELECT b FROM n ORDER BY b", "1", "2", "NULL");
        rows("SELECT b FROM n ORDER BY b DESC", "NULL", "2", "1");
        rows("SELECT id AS k FROM emp ORDER BY k DESC LIMIT 1", "5");
        rows("SELECT MIN(salary), AVG(id) FROM emp WHERE id > 100", "NULL|NULL");
        rows("SELECT a FROM n UNION SELECT b FROM n ORDER BY 1", "1", "2", "NULL");
        rows("SELECT a FROM n UNION ALL SELECT id FROM emp WHERE id < 3 ORDER BY 1 DESC", "2", "2", "1", "1", "1");
        rows("SELECT a FROM n INTERSECT SELECT id FROM emp", "1", "2");
        rows("SELECT id FROM emp EXCEPT SELECT a FROM n ORDER BY id", "3", "4", "5");
    }
}
