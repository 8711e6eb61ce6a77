package io.respsql.sql;

import io.respsql.sql.tree.Expr;
import io.respsql.sql.tree.Query;
import io.respsql.sql.tree.Statement;
import io.respsql.sql.tree.TypeName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlParserTest {

    private static <T extends Statement> T parse(String sql, Class<T> type) {
        return assertInstanceOf(type, SqlParser.parse(sql), sql);
    }

    /** The query of a query statement, rendered. */
    private static String query(String sql) {
        return TreeText.of(parse(sql, Statement.QueryStatement.class).query());
    }

    private static Query.Select select(String sql) {
        return assertInstanceOf(Query.Select.class, parse(sql, Statement.QueryStatement.class).query(), sql);
    }

    /** One expression, read as the only select item. */
    private static String expr(String e) {
        Query.Select s = select("SELECT " + e);
        assertEquals(1, s.items().size(), e);
        return TreeText.of(((Query.Item) s.items().get(0)).expr());
    }

    private static String where(String sql) {
        Statement s = SqlParser.parse(sql);
        Expr w = s instanceof Statement.QueryStatement q ? ((Query.Select) q.query()).where()
                : s instanceof Statement.Update u ? u.where()
                : ((Statement.Delete) s).where();
        return TreeText.of(w);
    }

    private static String error(String sql) {
        return assertThrows(SqlException.class, () -> SqlParser.parse(sql), sql).getMessage();
    }

    private static String joined(String... args) {
        return String.join(" ", args);
    }

    private static String values(Statement.Insert s) {
        return s.rows().stream().map(r -> "(" + TreeText.list(r) + ")").collect(Collectors.joining(" "));
    }

    private static String assignments(Statement.Update s) {
        return s.assignments().stream().map(a -> a.column() + "=" + TreeText.of(a.value())).collect(Collectors.joining(" "));
    }

    /** A statement's record text without source spans, so differently spaced statements compare equal. */
    private static String withoutSpans(Statement s) {
        return s.toString().replaceAll(", start=\\d+, end=\\d+", "").replaceAll("TypeName\\[([^]]*), \\d+, \\d+]", "$1");
    }

    private static String columns(Statement.CreateTable t) {
        return t.columns().stream().map(c -> c.name() + ":" + TreeText.type(c.type()) + (c.primaryKey() ? ":pk" : "")
                + (c.notNull() ? ":notnull" : "") + (c.unique() ? ":unique" : "")
                + (c.defaultValue() == null ? "" : ":default=" + c.defaultText()))
                .collect(Collectors.joining(" "));
    }

    @Nested
    class CreateTable {
        @Test
        void referenceForm() {
            Statement.CreateTable t = parse("CREATE TABLE t (id int primary key, division int, salary FLOAT, name TEXT)",
                    Statement.CreateTable.class);
            assertEquals("t", t.table());
            assertEquals("id:INT:pk division:INT salary:FLOAT name:TEXT", columns(t));
            assertEquals(List.of(), t.keys());
            assertFalse(t.ifNotExists());
        }

        @Test
        void tableConstraintsMayComeFirstOrLast() {
            Statement.CreateTable t = parse("CREATE TABLE t (a INT, b TEXT, PRIMARY KEY (b))", Statement.CreateTable.class);
            assertEquals("a:INT b:TEXT", columns(t));
            assertEquals(List.of(new Statement.KeyConstraint(true, List.of("b"))), t.keys());
            t = parse("create table t (primary key (b, a), a int, b bigint, unique (a, b))", Statement.CreateTable.class);
            assertEquals("a:INT b:BIGINT", columns(t));
            assertEquals(List.of(new Statement.KeyConstraint(true, List.of("b", "a")),
                    new Statement.KeyConstraint(false, List.of("a", "b"))), t.keys());
        }

        @Test
        void columnConstraintsAndDefaults() {
            Statement.CreateTable t = parse("CREATE TABLE IF NOT EXISTS t (id INT NOT NULL PRIMARY KEY, s VARCHAR(32) NOT NULL,"
                    + " u TEXT UNIQUE NULL, d INT DEFAULT -1 NOT NULL, e TEXT DEFAULT 'x', f INT DEFAULT (1 + 2))",
                    Statement.CreateTable.class);
            assertTrue(t.ifNotExists());
            assertEquals("id:INT:pk:notnull s:VARCHAR(32):notnull u:TEXT:unique d:INT:notnull:default=-1"
                    + " e:TEXT:default='x' f:INT:default=(1 + 2)", columns(t));
            assertEquals("(neg 1)", TreeText.of(t.columns().get(3).defaultValue()));
            assertEquals("(+ 1 2)", TreeText.of(t.columns().get(5).defaultValue()));
        }

        @Test
        void typeNames() {
            String sql = "CREATE TABLE t (a INTEGER, b BIGINT, c SMALLINT, d TINYINT, e FLOAT, f REAL,"
                    + " g DOUBLE, h DOUBLE PRECISION, i NUMERIC(10,2), j DECIMAL(5), k TEXT, l VARCHAR(8), m CHAR(3),"
                    + " n CHARACTER VARYING(5), o CHARACTER(2), p BOOLEAN, q DATE, r TIMESTAMP, s blob)";
            Statement.CreateTable t = parse(sql, Statement.CreateTable.class);
            assertEquals("a:INTEGER b:BIGINT c:SMALLINT d:TINYINT e:FLOAT f:REAL g:DOUBLE h:DOUBLE PRECISION"
                    + " i:NUMERIC(10,2) j:DECIMAL(5) k:TEXT l:VARCHAR(8) m:CHAR(3) n:CHARACTER VARYING(5) o:CHARACTER(2)"
                    + " p:BOOLEAN q:DATE r:TIMESTAMP s:BLOB", columns(t));
            TypeName n = t.columns().get(8).type();
            assertEquals(new TypeName("NUMERIC", 10, 2, n.start(), n.end()), n);
            assertEquals("NUMERIC(10,2)", sql.substring(n.start(), n.end()));
        }

        @Test
        void columnsNamedLikeKeywords() {
            Statement.CreateTable t = parse("CREATE TABLE message_list (id int primary key, fk int, count INT, date DATE,"
                    + " first TEXT, key INT)", Statement.CreateTable.class);
            assertEquals("id:INT:pk fk:INT count:INT date:DATE first:TEXT key:INT", columns(t));
        }

        @Test
        void theWholeDefinitionMayArriveAsOneArgument() {
            String a = joined("CREATE", "TABLE", "message_list", "(id int primary key, fk int, count INT)");
            String b = joined("CREATE", "TABLE", "message_list", "(id", "int", "primary", "key,", "fk", "int,", "count", "INT)");
            String c = "CREATE TABLE message_list(id int primary key,fk int,count INT)";
            assertEquals(withoutSpans(SqlParser.parse(a)), withoutSpans(SqlParser.parse(b)));
            assertEquals(withoutSpans(SqlParser.parse(a)), withoutSpans(SqlParser.parse(c)));
        }
    }

    @Nested
    class OtherDdl {
        @Test
        void createIndexWithColonsInTheName() {
            Statement.CreateIndex s = parse(joined("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"),
                    Statement.CreateIndex.class);
            assertEquals(new Statement.CreateIndex("message_list:fk:index", "message_list",
                    List.of(new Statement.IndexColumn("fk", false)), false, false), s);
        }

        @Test
        void uniqueMultiColumnIndexes() {
            assertEquals(new Statement.CreateIndex("i", "t", List.of(new Statement.IndexColumn("a", false),
                    new Statement.IndexColumn("b", true), new Statement.IndexColumn("c", false)), true, true),
                    SqlParser.parse("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a, b DESC, c ASC)"));
        }

        @Test
        void views() {
            String sql = "CREATE VIEW IF NOT EXISTS v (x, y) AS SELECT a, b FROM t WHERE a > 0 UNION SELECT 1, 2;";
            Statement.CreateView v = parse(sql, Statement.CreateView.class);
            assertEquals("v", v.view());
            assertEquals(List.of("x", "y"), v.columnNames());
            assertTrue(v.ifNotExists());
            assertEquals("SELECT a, b FROM t WHERE a > 0 UNION SELECT 1, 2", v.queryText());
            assertEquals("[union [select a, b from t where (> a 0)] [select 1, 2]]", TreeText.of(v.query()));
            Statement.CreateView temp = parse("CREATE TEMP VIEW view2 AS SELECT x FROM t1 WHERE x>0", Statement.CreateView.class);
            assertNull(temp.columnNames());
            assertEquals("SELECT x FROM t1 WHERE x>0", temp.queryText());
            assertEquals("view3", parse("CREATE TEMPORARY VIEW view3 AS SELECT 1", Statement.CreateView.class).view());
        }

        @Test
        void dropDescDumpShow() {
            assertEquals(new Statement.DropIndex("t:col:index", false), SqlParser.parse("DROP INDEX t:col:index"));
            assertEquals(new Statement.DropIndex("i", true), SqlParser.parse("DROP INDEX IF EXISTS i"));
            assertEquals(new Statement.DropTable("t", false), SqlParser.parse("DROP TABLE t"));
            assertEquals(new Statement.DropTable("t", true), SqlParser.parse("drop table if exists t"));
            assertEquals(new Statement.DropView("v", true), SqlParser.parse("DROP VIEW IF EXISTS v"));
            assertEquals(new Statement.Describe("t"), SqlParser.parse("DESC t"));
            assertEquals(new Statement.Describe("t"), SqlParser.parse("describe t"));
            assertEquals(new Statement.Dump("t"), SqlParser.parse("DUMP t"));
            assertEquals(new Statement.ShowTables(), SqlParser.parse("SHOW TABLES"));
            assertEquals(new Statement.ShowIndexes(null), SqlParser.parse("SHOW INDEXES"));
            assertEquals(new Statement.ShowIndexes("t"), SqlParser.parse("show indexes from t"));
            assertEquals(new Statement.ShowIndexes("t"), SqlParser.parse("SHOW INDEX IN t"));
            assertEquals(new Statement.Dump("t"), SqlParser.parse("DUMP t;"));
        }

        @Test
        void explainWrapsAnyStatement() {
            Statement.Explain e = parse("EXPLAIN SELECT * FROM t WHERE fk = 1", Statement.Explain.class);
            assertEquals(withoutSpans(SqlParser.parse("SELECT * FROM t WHERE fk = 1")), withoutSpans(e.statement()));
            assertInstanceOf(Statement.Update.class, parse("explain UPDATE t SET a=1 WHERE b=2", Statement.Explain.class).statement());
            assertInstanceOf(Statement.Delete.class, parse("EXPLAIN DELETE FROM t", Statement.Explain.class).statement());
        }
    }

    @Nested
    class Insert {
        @Test
        void referenceFormWithUnquotedText() {
            Statement.Insert s = parse("INSERT INTO t VALUES (1,66,1,15000.99,marieanne)", Statement.Insert.class);
            assertEquals("t", s.table());
            assertNull(s.columns());
            assertNull(s.query());
            assertEquals("(1 66 1 15000.99f marieanne)", values(s));
            assertInstanceOf(Expr.Column.class, s.rows().get(0).get(4), "the binder reads a bare name in VALUES as text");
            assertFalse(s.returnSize());
        }

        @Test
        void leadingZerosAreKeptAsWritten() {
            Statement.Insert s = parse(joined("INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"),
                    Statement.Insert.class);
            assertEquals("(000000000001 000000000001 4)", values(s));
            assertEquals(new Expr.Literal(Expr.LiteralKind.INTEGER, "000000000001", 33, 45), s.rows().get(0).get(0));
        }

        @Test
        void multiRowWithColumnList() {
            Statement.Insert s = parse("INSERT INTO t (id, name) VALUES (1, 'a'), (2, \"b\"), (3, c)", Statement.Insert.class);
            assertEquals(List.of("id", "name"), s.columns());
            assertEquals("(1 'a') (2 b) (3 c)", values(s), "a double-quoted value is a name, read as text where no column has it");
        }

        @Test
        void returnSize() {
            assertTrue(parse("INSERT INTO t VALUES (1,2,3) RETURN SIZE", Statement.Insert.class).returnSize());
            assertTrue(parse("insert into t values (1,2,3) return size", Statement.Insert.class).returnSize());
            assertTrue(parse("INSERT INTO t SELECT * FROM u RETURN SIZE", Statement.Insert.class).returnSize());
        }

        @Test
        void multiWordAndPunctuatedUnquotedText() {
            Statement.Insert s = parse("INSERT INTO t VALUES (1, marie anne, hello  big world, x, not sure, rock and roll)",
                    Statement.Insert.class);
            assertEquals("(1 {marie anne} {hello  big world} x {not sure} {rock and roll})", values(s),
                    "multi-word text is taken verbatim");
            Expr hyphen = parse("INSERT INTO t VALUES (1, foo-bar)", Statement.Insert.class).rows().get(0).get(1);
            assertEquals("(- foo bar)", TreeText.of(hyphen), "parses as an expression; the executor reads its span");
            assertEquals(List.of(25, 32), List.of(hyphen.start(), hyphen.end()));
            Expr raw = s.rows().get(0).get(1);
            assertEquals(new Expr.Raw("marie anne", 25, 35), raw);
        }

        @Test
        void keywordsAloneAreNames() {
            assertEquals("(1 case cast not exists select NULL TRUE)",
                    values(parse("INSERT INTO t VALUES (1, case, cast, not, exists, select, null, true)", Statement.Insert.class)));
        }

        @Test
        void expressionsOfConstantsAreValues() {
            assertEquals("((neg 5) (neg 2.5f) (+ 1 (* 2 3)) (< 1 2) (isnull NULL) (|| 'a' 'b') (case (when 1 2)))",
                    values(parse("INSERT INTO t VALUES (-5, -2.5, 1+2*3, 1 < 2, NULL IS NULL, 'a' || 'b', CASE WHEN 1 THEN 2 END)",
                            Statement.Insert.class)));
        }

        @Test
        void insertSelect() {
            Statement.Insert s = parse("INSERT INTO t (a, b) SELECT x, y FROM u WHERE x > 1", Statement.Insert.class);
            assertEquals(List.of("a", "b"), s.columns());
            assertNull(s.rows());
            assertEquals("[select x, y from u where (> x 1)]", TreeText.of(s.query()));
            assertEquals("[select 1]", TreeText.of(parse("INSERT INTO t (SELECT 1)", Statement.Insert.class).query()));
        }
    }

    @Nested
    class Select {
        @Test
        void referenceForms() {
            assertEquals("[select * from t where (= id 22)]", query("SELECT * FROM t WHERE id = 22"));
            assertEquals("[select name, salary from t where (= id 2)]", query("SELECT name,salary FROM t WHERE id=2"));
            assertEquals("[select * from t where (between id 4 9) order id:desc limit 4 offset 1]",
                    query("SELECT * FROM t WHERE id BETWEEN 4 AND 9 ORDER BY id DESC LIMIT 4 OFFSET 1"));
            assertEquals("[select * from t where (= division 22)]", query("SELECT * FROM t WHERE division = 22"));
            assertEquals("[select * from t where (in id [1 2 3 4])]", query("SELECT * FROM t WHERE id IN (1,2,3,4)"));
            assertEquals("[select * from t where (in hobby [yachting painting])]",
                    query("SELECT * FROM t WHERE hobby IN (yachting,painting)"));
            assertEquals("[select * from t where (in hobby [{ice skating} 'x'])]",
                    query("SELECT * FROM t WHERE hobby IN (ice skating, 'x')"), "2010 unquoted text in an IN list");
            assertEquals("[select * from t where (not-in id [000000000001])]", query("SELECT * FROM t WHERE id NOT IN (000000000001)"));
            assertEquals("[select * from t where (between hobby v z)]", query("SELECT * FROM t WHERE hobby BETWEEN v AND z"));
            assertEquals("[select COUNT(*) from t where (= employee 4)]", query("SELECT COUNT(*) FROM t WHERE employee = 4"));
            assertEquals("[select division.name, worker.name from (cross division worker) where (and (= division.id worker.division)"
                    + " (between division.id 11 33)) order worker.salary:desc]",
                    query("SELECT division.name,worker.name FROM division,worker WHERE division.id = worker.division"
                            + " AND division.id BETWEEN 11 AND 33 ORDER BY worker.salary DESC"));
            assertEquals("[select a.x, b.y, c.z from (cross (cross a b) c) where (and (= a.id b.a) (= b.id c.b))]",
                    query("SELECT a.x, b.y, c.z FROM a, b, c WHERE a.id = b.a AND b.id = c.b"));
        }

        @Test
        void scanSelectIsASelectMarkedScan() {
            Query.Select s = select("SCANSELECT id,name FROM t WHERE salary * 2 > 10 OR name = x");
            assertTrue(s.scan());
            assertEquals("[scanselect id, name from t where (or (> (* salary 2) 10) (= name x))]", TreeText.of(s));
        }

        @Test
        void clauses() {
            Query.Select s = select("SELECT DISTINCT a, b AS bb, c cc, d 'dd', t.*, * FROM t AS x WHERE a > 1 GROUP BY a, b"
                    + " HAVING count(*) > 2 ORDER BY a, b DESC, c ASC NULLS FIRST, d + 1 desc nulls last LIMIT 10 OFFSET 5");
            assertEquals("[select distinct a, b as bb, c as cc, d as dd, t.*, * from t x where (> a 1) group a b"
                    + " having (> COUNT(*) 2) order a b:desc c:nulls-first (+ d 1):desc:nulls-last limit 10 offset 5]",
                    TreeText.of(s));
            assertEquals("[select * from t offset 3]", query("SELECT * FROM t OFFSET 3"));
            assertEquals("[select * from t limit 3 offset 2]", query("SELECT * FROM t LIMIT 2, 3"), "SQLite's LIMIT offset, count");
            assertEquals("[select ALL_x]", query("SELECT ALL ALL_x"));
            assertEquals("[select 1, 'a']", query("SELECT 1, 'a'"));
        }

        @Test
        void keywordsAreNamesWhereANameIsExpected() {
            assertEquals("[select count, date, first, key from order o where (= count 1)]",
                    query("SELECT count, date, first, key FROM \"order\" o WHERE count = 1"));
            assertEquals("[select COUNT(count) from t]", query("select count(count) from t"));
            assertEquals("[select * from t x]", query("SELECT * FROM t x"));
        }

        @Test
        void joins() {
            assertEquals("[select * from (inner a b on (= a.x b.x))]", query("SELECT * FROM a JOIN b ON a.x = b.x"));
            assertEquals("[select * from (inner a b on (= a.x b.x))]", query("SELECT * FROM a INNER JOIN b ON a.x = b.x"));
            assertEquals("[select * from (left a b on (= a.x b.x))]", query("SELECT * FROM a LEFT OUTER JOIN b ON a.x = b.x"));
            assertEquals("[select * from (left a b using [x, y])]", query("SELECT * FROM a LEFT JOIN b USING (x, y)"));
            assertEquals("[select * from (right a b on TRUE)]", query("SELECT * FROM a RIGHT JOIN b ON TRUE"));
            assertEquals("[select * from (full a b on FALSE)]", query("SELECT * FROM a FULL OUTER JOIN b ON FALSE"));
            assertEquals("[select * from (cross tab0 cor0 tab2 cor1)]", query("SELECT ALL * FROM tab0 cor0 CROSS JOIN tab2 AS cor1"));
            assertEquals("[select * from (natural-inner a b)]", query("SELECT * FROM a NATURAL JOIN b"));
            assertEquals("[select * from (natural-left a b)]", query("SELECT * FROM a NATURAL LEFT JOIN b"));
            assertEquals("[select * from (inner (left a b on (= a.x b.x)) c on (= c.y b.y))]",
                    query("SELECT * FROM a LEFT JOIN b ON a.x = b.x JOIN c ON c.y = b.y"), "joins are left-deep");
            assertEquals("[select * from (cross a (inner b c on (= b.x c.x)))]",
                    query("SELECT * FROM a, (b JOIN c ON b.x = c.x)"), "a parenthesized join tree");
            assertEquals("[select * from (inner [select 1 as x] s [select 2 as x] on (= s.x 1))]",
                    query("SELECT * FROM (SELECT 1 AS x) s JOIN (SELECT 2 AS x) ON s.x = 1"));
            assertEquals("[select * from (inner [select 1] d e)]", query("SELECT * FROM ((SELECT 1) AS d JOIN e)"));
            assertEquals("[select * from t1]", query("SELECT * FROM t1 NOT INDEXED"));
            assertEquals("[select * from t1 x where (= a 1)]", query("SELECT * FROM t1 x INDEXED BY i1 WHERE a = 1"),
                    "SQLite's index hints are read and dropped");
            assertEquals("[select * from t1 where (= a 1)]", query("SELECT * FROM t1 INDEXED BY i1 WHERE a = 1"));
        }

        @Test
        void setOperations() {
            assertEquals("[union_all [union [select 1] [select 2]] [select 3]]", query("SELECT 1 UNION SELECT 2 UNION ALL SELECT 3"),
                    "left-associative");
            assertEquals("[union [select 1] [intersect [select 2] [select 3]]]", query("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"),
                    "INTERSECT binds tighter");
            assertEquals("[except [intersect [select 1] [select 2]] [select 3]]", query("SELECT 1 INTERSECT SELECT 2 EXCEPT SELECT 3"));
            assertEquals("[union [select a from t] [select b from u] order 1:desc limit 2]",
                    query("SELECT a FROM t UNION SELECT b FROM u ORDER BY 1 DESC LIMIT 2"), "a trailing ORDER BY is the whole's");
            assertEquals("[union [select a from t order a limit 1] [select b from u]]",
                    query("(SELECT a FROM t ORDER BY a LIMIT 1) UNION SELECT b FROM u"));
            assertEquals("[intersect [select 1] [union [select 2] [select 3]]]", query("SELECT 1 INTERSECT (SELECT 2 UNION SELECT 3)"));
        }

        @Test
        void valuesAsAQuery() {
            assertEquals("[values (1 'a') (2 'b')]", query("VALUES (1, 'a'), (2, 'b')"));
            assertEquals("[select * from [values (2) (1)] order 1]", query("VALUES (2), (1) ORDER BY 1"));
            assertEquals("[union [select 1] [values (2)]]", query("SELECT 1 UNION VALUES (2)"));
        }

        @Test
        void subqueries() {
            assertEquals("(in x [select y from u])", expr("x IN (SELECT y FROM u)"));
            assertEquals("(not-in x [select y from u])", expr("x NOT IN (SELECT y FROM u)"));
            assertEquals("(in x [select * from t1])", expr("x IN t1"), "SQLite's x IN table");
            assertEquals("(not-in 'a' [select * from t7])", expr("'a' NOT IN t7"));
            assertEquals("(in 1 [])", expr("1 IN ()"));
            assertEquals("(exists [select 1 from u])", expr("EXISTS (SELECT 1 FROM u)"));
            assertEquals("(not-exists [select 1 from u])", expr("NOT EXISTS(SELECT 1 FROM u)"));
            assertEquals("(+ [select MAX(a) from t] 1)", expr("(SELECT max(a) FROM t) + 1"));
            assertEquals("(+ [select 1] 2)", expr("((SELECT 1) + 2)"));
            assertEquals("[union [select 1] [select 2]]", expr("(SELECT 1 UNION SELECT 2)"));
            assertEquals("(in x [(+ [select 1] 1) 2])", expr("x IN ((SELECT 1) + 1, 2)"));
            Expr.ScalarQuery q = assertInstanceOf(Expr.ScalarQuery.class,
                    ((Query.Item) select("SELECT (SELECT 1)").items().get(0)).expr());
            assertEquals(List.of(7, 17), List.of(q.start(), q.end()));
        }
    }

    @Nested
    class Expressions {
        @ParameterizedTest
        @CsvSource(delimiterString = "~>", value = {
            "a = 1 OR b = 2 AND c = 3 ~> (or (= a 1) (and (= b 2) (= c 3)))",
            "(a = 1 OR b = 2) AND c = 3 ~> (and (or (= a 1) (= b 2)) (= c 3))",
            "a OR b OR c ~> (or (or a b) c)",
            "a AND b AND c ~> (and (and a b) c)",
            "NOT a = 1 AND b = 2 ~> (and (not (= a 1)) (= b 2))",
            "NOT (a = 1 AND b = 2) ~> (not (and (= a 1) (= b 2)))",
            "NOT NOT a ~> (not (not a))",
            "NOT NULL IS NULL ~> (not (isnull NULL))",
            "(a + 1) * 2 = b ~> (= (* (+ a 1) 2) b)",
            "a = 1 + 2 * 3 - 4 / 2 % 3 ~> (= a (- (+ 1 (* 2 3)) (% (/ 4 2) 3)))",
            "a - b - c ~> (- (- a b) c)",
            "a / b * c ~> (* (/ a b) c)",
            "a <> 1 ~> (<> a 1)",
            "a != 1 AND b <= 2 AND c >= 3 ~> (and (and (<> a 1) (<= b 2)) (>= c 3))",
            "a == 1 ~> (= a 1)",
            "5 < a ~> (< 5 a)",
            "a < b = c ~> (= (< a b) c)",
            "a = b < c ~> (= a (< b c))",
            "a = b = c ~> (= (= a b) c)",
            "a || b || c ~> (|| (|| a b) c)",
            "a || b * c ~> (* (|| a b) c)",
            "a * b || c ~> (* a (|| b c))",
            "-a || b ~> (|| (neg a) b)",
            "a = -b ~> (= a (neg b))",
            "- - + 5 ~> (neg (neg (pos 5)))",
            "+ - col ~> (pos (neg col))",
            "col0 * - col2 - - col1 ~> (- (* col0 (neg col2)) (neg col1))",
            "a = NOT b ~> (= a (not b))",
            "name = 'it''s' ~> (= name 'it''s')",
            "a BETWEEN 1 + 1 AND 2 * 3 ~> (between a (+ 1 1) (* 2 3))",
            "a NOT BETWEEN b AND c AND d ~> (and (not-between a b c) d)",
            "a BETWEEN b AND c = d ~> (= (between a b c) d)",
            "t.a = u.b ~> (= t.a u.b)",
            "a IS NULL ~> (isnull a)",
            "a IS NOT NULL ~> (notnull a)",
            "a ISNULL OR b NOTNULL ~> (or (isnull a) (notnull b))",
            "a NOT NULL ~> (notnull a)",
            "a IS b ~> (not-distinct a b)",
            "a IS NOT b ~> (distinct a b)",
            "a IS DISTINCT FROM b ~> (distinct a b)",
            "a IS NOT DISTINCT FROM b + 1 ~> (not-distinct a (+ b 1))",
            "a IS NOT NULL NOT BETWEEN 1 AND 2 ~> (not-between (notnull a) 1 2)",
            "a IN (1, 2) = b IN (3) ~> (in (= (in a [1 2]) b) [3])",
            "a NOT IN (1, b + 1) ~> (not-in a [1 (+ b 1)])",
            "a LIKE 'x%' ~> (like a 'x%')",
            "a NOT LIKE 'x!%' ESCAPE '!' ~> (not-like a 'x!%' escape '!')",
            "a LIKE b || 'x' AND c ~> (and (like a (|| b 'x')) c)",
            "x'303132' IN () ~> (in '012' [])",
        })
        void precedenceAndAssociativity(String e, String expected) {
            assertEquals(expected, expr(e));
        }

        @ParameterizedTest
        @CsvSource(delimiterString = "~>", value = {
            "NULL ~> NULL",
            "TRUE ~> TRUE",
            "false ~> FALSE",
            "007 ~> 007",
            "1.5 ~> 1.5f",
            ".5 ~> .5f",
            "1e10 ~> 1e10f",
            "2.5E-3 ~> 2.5E-3f",
            "\"quoted name\" ~> quoted name",
            "`back tick` ~> back tick",
            "[bracketed] ~> bracketed",
            "TIMESTAMP '2024-06-01 00:00:00' ~> TIMESTAMP'2024-06-01 00:00:00'",
            "DATE '2024-06-01' ~> DATE'2024-06-01'",
            "date ~> date",
            "CASE WHEN a > 1 THEN 'x' WHEN a IS NULL THEN 'n' ELSE 'y' END ~> (case (when (> a 1) 'x') (when (isnull a) 'n') (else 'y'))",
            "CASE a WHEN 1 THEN 2 END ~> (case a (when 1 2))",
            "CAST(a AS INTEGER) ~> (cast a INTEGER)",
            "CAST(a + 1 AS VARCHAR(10)) ~> (cast (+ a 1) VARCHAR(10))",
            "CAST(a AS DOUBLE PRECISION) ~> (cast a DOUBLE PRECISION)",
            "abs(-a) ~> ABS((neg a))",
            "coalesce(a, b, 1) ~> COALESCE(a b 1)",
            "count(*) ~> COUNT(*)",
            "count(DISTINCT a) ~> COUNT(distinct a)",
            "count(ALL a) ~> COUNT(a)",
            "random() ~> RANDOM()",
            "group_concat(x, ':') ~> GROUP_CONCAT(x ':')",
            "row_number() OVER () ~> ROW_NUMBER() over()",
            "sum(a) OVER (PARTITION BY b, c ORDER BY d) ~> SUM(a) over(partition b c order d)",
            "sum(a) OVER (ORDER BY d ROWS 2 PRECEDING) ~> SUM(a) over( order d ROWS 2:PRECEDING)",
            "avg(a) OVER (RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) ~> AVG(a) over( RANGE CURRENT_ROW UNBOUNDED_FOLLOWING)",
        })
        void primaries(String e, String expected) {
            assertEquals(expected, expr(e));
        }

        @Test
        void spansCoverTheSource() {
            String sql = "SELECT a + b * 2, CAST(x AS INT) FROM t";
            Query.Select s = select(sql);
            Expr first = ((Query.Item) s.items().get(0)).expr();
            Expr second = ((Query.Item) s.items().get(1)).expr();
            assertEquals("a + b * 2", sql.substring(first.start(), first.end()));
            assertEquals("CAST(x AS INT)", sql.substring(second.start(), second.end()));
            assertEquals(List.of(0, sql.length()), List.of(s.start(), s.end()));
        }
    }

    @Nested
    class Update {
        @Test
        void referenceFormWithUnquotedText() {
            Statement.Update s = parse("UPDATE t SET salary=5.55,name=NEWNAME,division=66 WHERE id=1", Statement.Update.class);
            assertEquals("t", s.table());
            assertEquals("salary=5.55f name=NEWNAME division=66", assignments(s));
            assertInstanceOf(Expr.Column.class, s.assignments().get(1).value());
            assertEquals("(= id 1)", TreeText.of(s.where()));
        }

        @Test
        void primaryKeyAndExpressions() {
            assertEquals("id=100", assignments(parse("UPDATE t SET id=100", Statement.Update.class)));
            assertEquals("count=(+ count 1)", assignments(parse("UPDATE message_list SET count=count+1 WHERE fk=1",
                    Statement.Update.class)));
            assertEquals("a=(case (when (> b 1) 2) (else 3)) b=NULL", assignments(parse(
                    "UPDATE t SET a = CASE WHEN b > 1 THEN 2 ELSE 3 END, b = NULL", Statement.Update.class)));
        }

        @Test
        void multiWordTextRunsToTheNextCommaOrWhere() {
            Statement.Update s = parse("UPDATE t SET name=marie anne, hobby=ice skating WHERE hobby BETWEEN v AND z",
                    Statement.Update.class);
            assertEquals("name={marie anne} hobby={ice skating}", assignments(s));
            assertEquals("(between hobby v z)", TreeText.of(s.where()));
            assertEquals("name={marie anne}", assignments(parse("UPDATE t SET name=marie anne;", Statement.Update.class)));
            assertEquals("flag={x > 5} g=(> x 5)", assignments(parse("UPDATE t SET flag = x > 5, g = (x > 5)", Statement.Update.class)),
                    "as in 2010, a bare condition over names is text; a parenthesized one is an expression");
        }

        @Test
        void withoutWhere() {
            assertNull(parse("UPDATE t SET a=1", Statement.Update.class).where());
        }

        @Test
        void delete() {
            Statement.Delete d = parse("DELETE FROM t WHERE id = 3", Statement.Delete.class);
            assertEquals("t", d.table());
            assertEquals("(= id 3)", TreeText.of(d.where()));
            assertEquals("(between employee 4 5)", where("DELETE FROM t WHERE employee BETWEEN 4 AND 5"));
            assertNull(parse("DELETE FROM t", Statement.Delete.class).where());
        }
    }

    /** The same statement as redis-cli might deliver it, split in different places, then joined by single spaces. */
    static Stream<List<String>> splits() {
        return Stream.of(
            List.of(joined("UPDATE", "message_list", "SET", "count=100", "WHERE", "fk=000000000001"),
                    joined("UPDATE", "message_list", "SET", "count", "=", "100", "WHERE", "fk", "=", "000000000001"),
                    joined("UPDATE message_list SET count=100 WHERE fk=000000000001")),
            List.of(joined("SELECT", "id,name", "FROM", "employee", "WHERE", "division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4"),
                    joined("SELECT", "id", ",", "name", "FROM", "employee", "WHERE", "division", "BETWEEN", "22", "AND", "77",
                            "ORDER", "BY", "name", "DESC", "LIMIT", "4"),
                    joined("SELECT", "id", ",name", "FROM", "employee", "WHERE", "division", "BETWEEN", "22", "AND", "77",
                            "ORDER", "BY", "name", "DESC", "LIMIT", "4")),
            List.of(joined("INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"),
                    joined("INSERT", "INTO", "message_list", "VALUES", "(", "000000000001", ",", "000000000001", ",", "4", ")"),
                    joined("INSERT", "INTO", "message_list", "VALUES", "(000000000001,", "000000000001,", "4)")),
            List.of(joined("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"),
                    joined("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(", "fk", ")"),
                    joined("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list(fk)")),
            List.of(joined("DELETE", "FROM", "t", "WHERE", "id = 3"),
                    joined("DELETE", "FROM", "t", "WHERE", "id=3"),
                    joined("DELETE", "FROM", "t", "WHERE", "id", "=", "3")),
            List.of(joined("SELECT", "*", "FROM", "t", "WHERE", "id IN (1,2,3,4)"),
                    joined("SELECT", "*", "FROM", "t", "WHERE", "id", "IN", "(1,", "2,", "3,", "4)")));
    }

    @Test
    void quotedStringsUnescape() {
        assertEquals("'a''b'", expr("'a''b'"));
        assertEquals(new Expr.Literal(Expr.LiteralKind.STRING, "it's", 7, 14),
                ((Query.Item) select("SELECT 'it''s'").items().get(0)).expr());
    }

    @ParameterizedTest
    @MethodSource("splits")
    void splittingDoesNotChangeTheStatement(List<String> variants) {
        String first = withoutSpans(SqlParser.parse(variants.get(0)));
        for (String v : variants) {
            assertEquals(first, withoutSpans(SqlParser.parse(v)), v);
        }
    }

    @Test
    void scriptsHoldSeveralStatements() {
        List<Statement> s = SqlParser.parseScript("INSERT INTO t1 VALUES(-1,'true');\nDROP INDEX t1i1;");
        assertEquals(2, s.size());
        assertEquals(new Statement.DropIndex("t1i1", false), s.get(1));
        assertEquals("syntax error: expected end of statement, found 'DROP' at position 35",
                error("INSERT INTO t1 VALUES(-1,'true'); DROP INDEX t1i1"));
    }

    @Nested
    class SyntaxErrors {
        @ParameterizedTest
        @CsvSource(delimiterString = "~>", value = {
            "FOO BAR ~> syntax error: expected a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW), found 'FOO' at position 1",
            "CREATE VIEW v ~> syntax error: expected AS, found end of statement",
            "CREATE FOO t ~> syntax error: expected TABLE, INDEX or VIEW after CREATE, found 'FOO' at position 8",
            "CREATE TEMP TABLE t (a INT) ~> syntax error: expected VIEW after CREATE TEMP, found 'TABLE' at position 13",
            "DROP t ~> syntax error: expected TABLE, INDEX or VIEW after DROP, found 't' at position 6",
            "CREATE TABLE t (id) ~> syntax error: expected a column type (INT, BIGINT, FLOAT, TEXT) for column 'id', found ')' at position 19",
            "CREATE TABLE t (id PRIMARY KEY) ~> syntax error: expected a column type (INT, BIGINT, FLOAT, TEXT) for column 'id', found 'PRIMARY' at position 20",
            "CREATE TABLE t (id INT PRIMARY) ~> syntax error: expected KEY, found ')' at position 31",
            "CREATE TABLE t (id INT ~> syntax error: expected ')', found end of statement",
            "CREATE TABLE t (s VARCHAR(x)) ~> syntax error: expected a size, found 'x' at position 27",
            "CREATE INDEX i ON t fk ~> syntax error: expected '(', found 'fk' at position 21",
            "SHOW TABLE ~> syntax error: expected TABLES or INDEXES after SHOW, found 'TABLE' at position 6",
            "INSERT t VALUES (1) ~> syntax error: expected INTO, found 't' at position 8",
            "INSERT INTO t VALUES 1 ~> syntax error: expected '(', found '1' at position 22",
            "INSERT INTO t VALUES (1, 2 ~> syntax error: expected ')' to close the value list, found end of statement",
            "INSERT INTO t (a) 1 ~> syntax error: expected VALUES or SELECT, found '1' at position 19",
            "INSERT INTO t VALUES (1) RETURN COUNT ~> syntax error: expected SIZE, found 'COUNT' at position 33",
            "SELECT * FROM t WHERE id = 1 garbage ~> syntax error: expected end of statement, found 'garbage' at position 30",
            "SELECT * FROM t WHERE id BETWEEN 1 OR 2 ~> syntax error: expected AND, found 'OR' at position 36",
            "SELECT * FROM t ORDER id ~> syntax error: expected BY, found 'id' at position 23",
            "SELECT * FROM t WHERE t. = 1 ~> syntax error: expected a column name after 't.', found '=' at position 26",
            "SELECT * FROM t WHERE ~> syntax error: expected a value or column name, found end of statement",
            "SELECT * FROM t WHERE id = ~> syntax error: expected a value or column name, found end of statement",
            "SELECT count(DISTINCT *) FROM t1 ~> syntax error: expected a value or column name, found '*' at position 23",
            "SELECT CASE END ~> syntax error: expected WHEN, found 'END' at position 13",
            "SELECT CASE WHEN 1 THEN 2 ~> syntax error: expected END, found end of statement",
            "SELECT CAST(a INT) ~> syntax error: expected AS, found 'INT' at position 15",
            "SELECT a IS NOT DISTINCT b ~> syntax error: expected FROM, found 'b' at position 26",
            "SELECT * FROM a NATURAL b ~> syntax error: expected JOIN after NATURAL, found 'b' at position 25",
            "SELECT * FROM a LEFT b ~> syntax error: expected JOIN, found 'b' at position 22",
            "SELECT 1 UNION ~> syntax error: expected SELECT, VALUES or '(', found end of statement",
            "SELECT * FROM t ORDER BY a NULLS ~> syntax error: expected FIRST or LAST after NULLS, found end of statement",
            "SELECT sum(a) OVER (ROWS 2) ~> syntax error: expected PRECEDING or FOLLOWING, found ')' at position 27",
            "SELECT a AS ~> syntax error: expected an alias after AS, found end of statement",
            "SELECT 1 IN (SELECT 1 ~> syntax error: expected ')', found end of statement",
            "SELECT x'3g' ~> syntax error: blob literal x'3g' has a character that is no hex digit",
            "UPDATE t SET = 5 ~> syntax error: expected column name, found '=' at position 14",
            "UPDATE t SET a 5 ~> syntax error: expected '=', found '5' at position 16",
            "DELETE t WHERE id = 1 ~> syntax error: expected FROM, found 't' at position 8",
            "SELECT * FROM 5 ~> syntax error: expected table name, found '5' at position 15",
            "SELECT a | b                             ~> syntax error: unexpected character '|' at position 10",
            "SELECT * FROM t WHERE id = ? ~> syntax error: unexpected character '?' at position 28",
            "SELECT `a ~> syntax error: unterminated quoted name starting at position 8",
        })
        void errorsNameTheTokenAndItsPosition(String sql, String message) {
            assertEquals(message, error(sql));
        }
    }

    @Nested
    class NestingLimit {
        private static final String TOO_DEEP = "syntax error: expression nested deeper than " + SqlParser.MAX_DEPTH + " levels";

        @Test
        void deepNestingIsRefusedWithAnError() {
            int n = 100_000;
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "(".repeat(n) + "1=1" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "(".repeat(n) + "1" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "- ".repeat(n) + "1"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "+".repeat(n) + "1"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = 1" + "+1".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = 1" + " || 1".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "id = 1 OR ".repeat(n) + "id = 2"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "NOT ".repeat(n) + "id = 2"));
            assertEquals(TOO_DEEP, error("SELECT " + "(SELECT ".repeat(n) + "1" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM " + "(".repeat(n) + "t" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT 1" + " UNION SELECT 1".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT " + "abs(".repeat(n) + "1" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT " + "CASE WHEN 1 THEN ".repeat(n) + "1" + " END".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE a IN (" + "(".repeat(n) + "1" + ")".repeat(n) + ")"));
            assertEquals(TOO_DEEP, error("INSERT INTO t VALUES (" + "(".repeat(n) + "1" + ")".repeat(n) + ")"));
            assertEquals(TOO_DEEP, error("EXPLAIN ".repeat(n) + "SELECT 1"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t" + ", t".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t" + " JOIN t ON 1".repeat(n)));
        }

        @Test
        void nestingUpToTheLimitParses() {
            int n = SqlParser.MAX_DEPTH - 10;
            SqlParser.parse("SELECT * FROM t WHERE id = " + "(".repeat(n) + "1" + ")".repeat(n));
            SqlParser.parse("SELECT * FROM t WHERE id = 1" + "+1".repeat(n));
            SqlParser.parse("SELECT * FROM t WHERE " + "id = 1 OR ".repeat(n) + "id = 2");
            SqlParser.parse("SELECT 1" + " UNION SELECT 1".repeat(n));
        }
    }

    /**
     * Inputs of the old parser's tests not written elsewhere in this class, with what they proved. LIMIT/OFFSET
     * operands and MAX(*) are expressions now, refused by the binder (QueryBinder, ErrorRepliesSqlTest), not here.
     */
    @Nested
    class FromTheOldParserTest {
        @Test
        void primaryKeyOnANonFirstColumnAndAsALeadingTableConstraint() {
            assertEquals("name:TEXT id:INT:pk",
                    columns(parse("CREATE TABLE t (name TEXT, id INT PRIMARY KEY)", Statement.CreateTable.class)));
            Statement.CreateTable t = parse("create table t (primary key (b), a int, b bigint)", Statement.CreateTable.class);
            assertEquals("a:INT b:BIGINT", columns(t));
            assertEquals(List.of("b"), t.keys().get(0).columns());
            assertTrue(t.keys().get(0).primary());
        }

        @Test
        void ifNotExistsWithNotNullAndSizedTypes() {
            Statement.CreateTable t = parse("CREATE TABLE IF NOT EXISTS t (id INT NOT NULL PRIMARY KEY, s VARCHAR(32) NOT NULL)",
                    Statement.CreateTable.class);
            assertTrue(t.ifNotExists());
            assertEquals("id:INT:pk:notnull s:VARCHAR(32):notnull", columns(t));
        }

        @Test
        void aKeywordAsTheLastColumnName() {
            assertEquals("id:INT:pk fk:INT count:INT", columns(parse(
                    "CREATE TABLE message_list (id int primary key, fk int, count INT)", Statement.CreateTable.class)));
        }

        @Test
        void unquotedWordsInValuesAndSignedOrComputedValues() {
            assertEquals("(1 {marie anne} {hello  big world} x)",
                    values(parse("INSERT INTO t VALUES (1, marie anne, hello  big world, x)", Statement.Insert.class)));
            assertEquals("((neg 5) (neg 2.5f) (+ 1 (* 2 3)))",
                    values(parse("INSERT INTO t VALUES (-5, -2.5, 1+2*3)", Statement.Insert.class)));
        }

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "SELECT * FROM t ORDER BY a, b DESC, c ASC, d + 1 desc | [select * from t order a b:desc c (+ d 1):desc]",
            "SELECT * FROM t WHERE id NOT BETWEEN 1 AND 2 | [select * from t where (not-between id 1 2)]",
            "SELECT sum(salary), Min(id), MAX(name), avg(id+1), count(id) FROM t"
                + " | [select SUM(salary), MIN(id), MAX(name), AVG((+ id 1)), COUNT(id) from t]",
            "SELECT * FROM t WHERE id BETWEEN 1 AND 2 ORDER BY id DESC LIMIT 1"
                + " | [select * from t where (between id 1 2) order id:desc limit 1]",
            "select * from t where id between 1 and 2 order by id desc limit 1"
                + " | [select * from t where (between id 1 2) order id:desc limit 1]",
            "SELECT * FROM t WHERE id | [select * from t where id]",
            "SELECT * FROM t LIMIT -1 OFFSET x | [select * from t limit (neg 1) offset x]",
        })
        void queries(String sql, String expected) {
            assertEquals(expected, query(sql), sql);
        }
    }

    /** A bare INITIALLY after a column's type is a syntax error, not a loop that never ends (SqlFuzzTest found it). */
    @Test
    void aBareInitiallyIsRefused() {
        assertTrue(error("CREATE TABLE t (c INT INITIALLY)").contains("expected DEFERRED or IMMEDIATE after INITIALLY"));
        assertTrue(error("CREATE TABLE t (c INT INITIALLY, d INT)").contains("DEFERRED or IMMEDIATE"));
        SqlParser.parse("CREATE TABLE t (c INT UNIQUE DEFERRABLE INITIALLY DEFERRED, d INT NOT DEFERRABLE INITIALLY IMMEDIATE)");
    }
}
