package io.respsql.sql;

import io.respsql.sql.Statement.ColumnDef;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParserTest {

    @SuppressWarnings("unchecked")
    private static <T extends Statement> T parse(String sql, Class<T> type) {
        return assertInstanceOf(type, Parser.parse(sql), sql);
    }

    private static String where(String sql) {
        Statement s = Parser.parse(sql);
        Expr w = s instanceof Statement.Select sel ? sel.where()
                : s instanceof Statement.Update u ? u.where()
                : ((Statement.Delete) s).where();
        return ExprText.of(w);
    }

    private static String error(String sql) {
        return assertThrows(SqlException.class, () -> Parser.parse(sql), sql).getMessage();
    }

    /** The statement text a server builds from RESP arguments: joined by single spaces. */
    private static String joined(String... args) {
        return String.join(" ", args);
    }

    private static String columns(Statement.CreateTable t) {
        return t.columns().stream().map(c -> c.name() + ":" + c.typeName() + (c.primaryKey() ? ":pk" : ""))
                .collect(Collectors.joining(" "));
    }

    private static String values(Statement.Insert s) {
        return s.rows().stream()
                .map(r -> r.stream().map(ExprText::of).collect(Collectors.joining(" ", "(", ")")))
                .collect(Collectors.joining(" "));
    }

    private static String items(Statement.Select s) {
        return s.items().stream().map(i -> i.expr() == null ? "*" : ExprText.of(i.expr())).collect(Collectors.joining(" "));
    }

    @Nested
    class CreateTable {
        @Test
        void referenceForm() {
            Statement.CreateTable t = parse("CREATE TABLE t (id int primary key, division int, salary FLOAT, name TEXT)",
                    Statement.CreateTable.class);
            assertEquals("t", t.table());
            assertEquals("id:int:pk division:int salary:FLOAT name:TEXT", columns(t));
            assertNull(t.primaryKeyColumn());
            assertFalse(t.ifNotExists());
        }

        @Test
        void primaryKeyOnANonFirstColumn() {
            Statement.CreateTable t = parse("CREATE TABLE t (name TEXT, id INT PRIMARY KEY)", Statement.CreateTable.class);
            assertEquals("name:TEXT id:INT:pk", columns(t));
        }

        @Test
        void primaryKeyAsATableConstraint() {
            Statement.CreateTable t = parse("CREATE TABLE t (a INT, b TEXT, PRIMARY KEY (b))", Statement.CreateTable.class);
            assertEquals("a:INT b:TEXT", columns(t));
            assertEquals("b", t.primaryKeyColumn());
        }

        @Test
        void constraintMayComeFirst() {
            Statement.CreateTable t = parse("create table t (primary key (b), a int, b bigint)", Statement.CreateTable.class);
            assertEquals("a:int b:bigint", columns(t));
            assertEquals("b", t.primaryKeyColumn());
        }

        @Test
        void ifNotExistsSizesAndNotNull() {
            Statement.CreateTable t = parse("CREATE TABLE IF NOT EXISTS t (id INT NOT NULL PRIMARY KEY, s VARCHAR(32) NOT NULL)",
                    Statement.CreateTable.class);
            assertTrue(t.ifNotExists());
            assertEquals("id:INT:pk s:VARCHAR", columns(t));
        }

        @Test
        void columnsNamedLikeFunctionsOrKeywords() {
            Statement.CreateTable t = parse("CREATE TABLE message_list (id int primary key, fk int, count INT)",
                    Statement.CreateTable.class);
            assertEquals("id:int:pk fk:int count:INT", columns(t));
        }

        @Test
        void theWholeDefinitionMayArriveAsOneArgument() {
            String a = joined("CREATE", "TABLE", "message_list", "(id int primary key, fk int, count INT)");
            String b = joined("CREATE", "TABLE", "message_list", "(id", "int", "primary", "key,", "fk", "int,", "count", "INT)");
            String c = "CREATE TABLE message_list(id int primary key,fk int,count INT)";
            assertEquals(ExprText.withoutSpans(Parser.parse(a)), ExprText.withoutSpans(Parser.parse(b)));
            assertEquals(ExprText.withoutSpans(Parser.parse(a)), ExprText.withoutSpans(Parser.parse(c)));
        }
    }

    @Nested
    class OtherDdl {
        @Test
        void createIndexWithColonsInTheName() {
            Statement.CreateIndex s = parse(joined("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"),
                    Statement.CreateIndex.class);
            assertEquals(new Statement.CreateIndex("message_list:fk:index", "message_list", "fk"), s);
        }

        @Test
        void dropDescDumpShow() {
            assertEquals(new Statement.DropIndex("t:col:index"), Parser.parse("DROP INDEX t:col:index"));
            assertEquals(new Statement.DropTable("t", false), Parser.parse("DROP TABLE t"));
            assertEquals(new Statement.DropTable("t", true), Parser.parse("drop table if exists t"));
            assertEquals(new Statement.Describe("t"), Parser.parse("DESC t"));
            assertEquals(new Statement.Describe("t"), Parser.parse("describe t"));
            assertEquals(new Statement.Dump("t"), Parser.parse("DUMP t"));
            assertEquals(new Statement.ShowTables(), Parser.parse("SHOW TABLES"));
            assertEquals(new Statement.ShowIndexes(null), Parser.parse("SHOW INDEXES"));
            assertEquals(new Statement.ShowIndexes("t"), Parser.parse("show indexes from t"));
            assertEquals(new Statement.ShowIndexes("t"), Parser.parse("SHOW INDEX IN t"));
        }

        @Test
        void trailingSemicolonIsAccepted() {
            assertEquals(new Statement.Dump("t"), Parser.parse("DUMP t;"));
        }
    }

    @Nested
    class Insert {
        @Test
        void referenceFormWithUnquotedText() {
            Statement.Insert s = parse("INSERT INTO t VALUES (1,66,1,15000.99,marieanne)", Statement.Insert.class);
            assertEquals("t", s.table());
            assertNull(s.columns());
            assertEquals("(1 66 1 15000.99f marieanne)", values(s));
            assertFalse(s.returnSize());
        }

        @Test
        void leadingZerosAreKeptAsWritten() {
            Statement.Insert s = parse(joined("INSERT", "INTO", "message_list", "VALUES", "(000000000001,000000000001,4)"),
                    Statement.Insert.class);
            assertEquals("(000000000001 000000000001 4)", values(s));
        }

        @Test
        void multiRowWithColumnList() {
            Statement.Insert s = parse("INSERT INTO t (id, name) VALUES (1, 'a'), (2, \"b\"), (3, c)", Statement.Insert.class);
            assertEquals(List.of("id", "name"), s.columns());
            assertEquals("(1 'a') (2 'b') (3 c)", values(s));
        }

        @Test
        void returnSize() {
            assertTrue(parse("INSERT INTO t VALUES (1,2,3) RETURN SIZE", Statement.Insert.class).returnSize());
            assertTrue(parse("insert into t values (1,2,3) return size", Statement.Insert.class).returnSize());
        }

        @Test
        void multiWordAndPunctuatedUnquotedText() {
            Statement.Insert s = parse("INSERT INTO t VALUES (1, marie anne, hello  big world, x)", Statement.Insert.class);
            assertEquals("(1 {marie anne} {hello  big world} x)", values(s), "multi-word text is taken verbatim");
            Expr hyphen = parse("INSERT INTO t VALUES (1, foo-bar)", Statement.Insert.class).rows().get(0).get(1);
            assertEquals("(- foo bar)", ExprText.of(hyphen), "parses as an expression; the executor reads its span");
            assertEquals(List.of(25, 32), List.of(hyphen.start(), hyphen.end()));
        }

        @Test
        void negativeAndArithmeticValues() {
            assertEquals("((neg 5) (neg 2.5f) (+ 1 (* 2 3)))",
                    values(parse("INSERT INTO t VALUES (-5, -2.5, 1+2*3)", Statement.Insert.class)));
        }
    }

    @Nested
    class Select {
        @Test
        void starAndPrimaryKeyEquality() {
            Statement.Select s = parse("SELECT * FROM t WHERE id = 22", Statement.Select.class);
            assertEquals("*", items(s));
            assertEquals(List.of(new Statement.TableRef("t")), s.from());
            assertEquals("(= id 22)", ExprText.of(s.where()));
            assertEquals(List.of(), s.orderBy());
            assertEquals(-1, s.limit());
            assertEquals(0, s.offset());
        }

        @Test
        void columnListWithoutSpaces() {
            Statement.Select s = parse("SELECT name,salary FROM t WHERE id=2", Statement.Select.class);
            assertEquals("name salary", items(s));
            assertEquals("(= id 2)", ExprText.of(s.where()));
        }

        @Test
        void betweenOrderByDescLimitOffset() {
            Statement.Select s = parse("SELECT * FROM t WHERE id BETWEEN 4 AND 9 ORDER BY id DESC LIMIT 4 OFFSET 1",
                    Statement.Select.class);
            assertEquals("(between id 4 9)", ExprText.of(s.where()));
            assertEquals(1, s.orderBy().size());
            assertEquals("id", ExprText.of(s.orderBy().get(0).expr()));
            assertTrue(s.orderBy().get(0).descending());
            assertEquals(4, s.limit());
            assertEquals(1, s.offset());
        }

        @Test
        void orderBySeveralColumns() {
            Statement.Select s = parse("SELECT * FROM t ORDER BY a, b DESC, c ASC, d + 1 desc", Statement.Select.class);
            assertEquals("a:asc b:desc c:asc (+ d 1):desc", s.orderBy().stream()
                    .map(o -> ExprText.of(o.expr()) + (o.descending() ? ":desc" : ":asc")).collect(Collectors.joining(" ")));
        }

        @Test
        void offsetWithoutLimit() {
            Statement.Select s = parse("SELECT * FROM t OFFSET 3", Statement.Select.class);
            assertEquals(-1, s.limit());
            assertEquals(3, s.offset());
        }

        @Test
        void inLists() {
            assertEquals("(in id [1 2 3 4])", where("SELECT * FROM t WHERE id IN (1,2,3,4)"));
            assertEquals("(in hobby [yachting painting])", where("SELECT * FROM t WHERE hobby IN (yachting,painting)"));
            assertEquals("(in hobby [{ice skating} 'x'])", where("SELECT * FROM t WHERE hobby IN (ice skating, 'x')"));
            assertEquals("(not-in id [000000000001])", where("SELECT * FROM t WHERE id NOT IN (000000000001)"));
        }

        @Test
        void betweenWithUnquotedWordsAndNegation() {
            assertEquals("(between hobby v z)", where("SELECT * FROM t WHERE hobby BETWEEN v AND z"));
            assertEquals("(not-between id 1 2)", where("SELECT * FROM t WHERE id NOT BETWEEN 1 AND 2"));
        }

        @Test
        void countStarWithWhere() {
            Statement.Select s = parse("SELECT COUNT(*) FROM t WHERE employee = 4", Statement.Select.class);
            assertEquals("COUNT(*)", items(s));
            assertEquals("(= employee 4)", ExprText.of(s.where()));
        }

        @Test
        void aggregatesAreCaseInsensitive() {
            assertEquals("SUM(salary) MIN(id) MAX(name) AVG((+ id 1)) COUNT(id)",
                    items(parse("SELECT sum(salary), Min(id), MAX(name), avg(id+1), count(id) FROM t", Statement.Select.class)));
        }

        @Test
        void twoTableJoinWithQualifiedNames() {
            Statement.Select s = parse("SELECT division.name,worker.name FROM division,worker WHERE division.id = worker.division"
                    + " AND division.id BETWEEN 11 AND 33 ORDER BY worker.salary DESC", Statement.Select.class);
            assertEquals("division.name worker.name", items(s));
            assertEquals(List.of(new Statement.TableRef("division"), new Statement.TableRef("worker")), s.from());
            assertEquals("(and (= division.id worker.division) (between division.id 11 33))", ExprText.of(s.where()));
            assertEquals("worker.salary", ExprText.of(s.orderBy().get(0).expr()));
            assertTrue(s.orderBy().get(0).descending());
        }

        @Test
        void threeTableJoin() {
            Statement.Select s = parse("SELECT a.x, b.y, c.z FROM a, b, c WHERE a.id = b.a AND b.id = c.b", Statement.Select.class);
            assertEquals(3, s.from().size());
            assertEquals("(and (= a.id b.a) (= b.id c.b))", ExprText.of(s.where()));
        }

        @Test
        void scanSelectIsASelect() {
            Statement.Select s = parse("SCANSELECT id,name FROM t WHERE salary * 2 > 10 OR name = x", Statement.Select.class);
            assertEquals("id name", items(s));
            assertEquals("(or (> (* salary 2) 10) (= name x))", ExprText.of(s.where()));
        }

        @Test
        void keywordsAreCaseInsensitive() {
            assertEquals(ExprText.withoutSpans(Parser.parse("SELECT * FROM t WHERE id BETWEEN 1 AND 2 ORDER BY id DESC LIMIT 1")),
                    ExprText.withoutSpans(Parser.parse("select * from t where id between 1 and 2 order by id desc limit 1")));
        }
    }

    @Nested
    class Conditions {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "a = 1 OR b = 2 AND c = 3        | (or (= a 1) (and (= b 2) (= c 3)))",
            "(a = 1 OR b = 2) AND c = 3      | (and (or (= a 1) (= b 2)) (= c 3))",
            "NOT a = 1 AND b = 2             | (and (not (= a 1)) (= b 2))",
            "NOT (a = 1 AND b = 2)           | (not (and (= a 1) (= b 2)))",
            "(a + 1) * 2 = b                 | (= (* (+ a 1) 2) b)",
            "a = 1 + 2 * 3 - 4 / 2 % 3       | (= a (- (+ 1 (* 2 3)) (% (/ 4 2) 3)))",
            "a <> 1                          | (!= a 1)",
            "a != 1 AND b <= 2 AND c >= 3    | (and (and (!= a 1) (<= b 2)) (>= c 3))",
            "5 < a                           | (< 5 a)",
            "a = -b                          | (= a (neg b))",
            "a = - - 1                       | (= a (neg (neg 1)))",
            "a = +1                          | (= a 1)",
            "name = 'it''s'                  | (= name 'it''s')",
            "a BETWEEN 1 + 1 AND 2 * 3       | (between a (+ 1 1) (* 2 3))",
            "t.a = u.b                       | (= t.a u.b)",
        })
        void precedenceAndOperators(String condition, String expected) {
            assertEquals(expected, where("SELECT * FROM t WHERE " + condition));
        }
    }

    @Nested
    class Update {
        @Test
        void referenceFormWithUnquotedText() {
            Statement.Update s = parse("UPDATE t SET salary=5.55,name=NEWNAME,division=66 WHERE id=1", Statement.Update.class);
            assertEquals("t", s.table());
            assertEquals("salary=5.55f name=NEWNAME division=66", assignments(s));
            assertEquals("(= id 1)", ExprText.of(s.where()));
        }

        @Test
        void primaryKeyAndExpressions() {
            assertEquals("id=100", assignments(parse("UPDATE t SET id=100", Statement.Update.class)));
            assertEquals("count=(+ count 1)", assignments(parse("UPDATE message_list SET count=count+1 WHERE fk=1",
                    Statement.Update.class)));
        }

        @Test
        void multiWordTextRunsToTheNextCommaOrWhere() {
            Statement.Update s = parse("UPDATE t SET name=marie anne, hobby=ice skating WHERE hobby BETWEEN v AND z",
                    Statement.Update.class);
            assertEquals("name={marie anne} hobby={ice skating}", assignments(s));
            assertEquals("(between hobby v z)", ExprText.of(s.where()));
        }

        @Test
        void withoutWhere() {
            assertNull(parse("UPDATE t SET a=1", Statement.Update.class).where());
        }

        private String assignments(Statement.Update s) {
            return s.assignments().stream().map(a -> a.column() + "=" + ExprText.of(a.value())).collect(Collectors.joining(" "));
        }
    }

    @Nested
    class Delete {
        @Test
        void byKeyAndByRange() {
            Statement.Delete d = parse("DELETE FROM t WHERE id = 3", Statement.Delete.class);
            assertEquals("t", d.table());
            assertEquals("(= id 3)", ExprText.of(d.where()));
            assertEquals("(between employee 4 5)", where("DELETE FROM t WHERE employee BETWEEN 4 AND 5"));
            assertNull(parse("DELETE FROM t", Statement.Delete.class).where());
        }
    }

    @Nested
    class Explain {
        @Test
        void wrapsAnyStatement() {
            Statement.Explain e = parse("EXPLAIN SELECT * FROM t WHERE fk = 1", Statement.Explain.class);
            assertEquals(ExprText.withoutSpans(Parser.parse("SELECT * FROM t WHERE fk = 1")), ExprText.withoutSpans(e.statement()));
            assertInstanceOf(Statement.Update.class, parse("explain UPDATE t SET a=1 WHERE b=2", Statement.Explain.class).statement());
            assertInstanceOf(Statement.Delete.class, parse("EXPLAIN DELETE FROM t", Statement.Explain.class).statement());
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

    @ParameterizedTest
    @MethodSource("splits")
    void splittingDoesNotChangeTheStatement(List<String> variants) {
        String first = ExprText.withoutSpans(Parser.parse(variants.get(0)));
        for (String v : variants) {
            assertEquals(first, ExprText.withoutSpans(Parser.parse(v)), v);
        }
    }

    @Nested
    class SyntaxErrors {
        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
            "FOO BAR                                  | syntax error: expected a statement (CREATE, DROP, DESC, DUMP, INSERT, SELECT, UPDATE, DELETE, EXPLAIN, SHOW), found 'FOO' at position 1",
            "CREATE VIEW v                            | syntax error: expected TABLE or INDEX after CREATE, found 'VIEW' at position 8",
            "DROP t                                   | syntax error: expected TABLE or INDEX after DROP, found 't' at position 6",
            "CREATE TABLE t (id)                      | syntax error: expected a column type (INT, BIGINT, FLOAT, TEXT) for column 'id', found ')' at position 19",
            "CREATE TABLE t (id INT PRIMARY)          | syntax error: expected KEY, found ')' at position 31",
            "CREATE TABLE t (id INT                   | syntax error: expected ')', found end of statement",
            "CREATE INDEX i ON t fk                   | syntax error: expected '(', found 'fk' at position 21",
            "SHOW TABLE                               | syntax error: expected TABLES or INDEXES after SHOW, found 'TABLE' at position 6",
            "INSERT t VALUES (1)                      | syntax error: expected INTO, found 't' at position 8",
            "INSERT INTO t VALUES 1                   | syntax error: expected '(', found '1' at position 22",
            "INSERT INTO t VALUES (1, 2               | syntax error: expected ')' to close the value list, found end of statement",
            "INSERT INTO t VALUES (1) RETURN COUNT    | syntax error: expected SIZE, found 'COUNT' at position 33",
            "SELECT * FROM t WHERE id = 1 garbage     | syntax error: expected end of statement, found 'garbage' at position 30",
            "SELECT * FROM t WHERE id                 | syntax error: expected a comparison (=, !=, <, <=, >, >=, BETWEEN, IN), found end of statement",
            "SELECT * FROM t WHERE id BETWEEN 1 OR 2  | syntax error: expected AND, found 'OR' at position 36",
            "SELECT * FROM t ORDER id                 | syntax error: expected BY, found 'id' at position 23",
            "SELECT * FROM t LIMIT -1                 | syntax error: expected a whole number after LIMIT, found '-' at position 23",
            "SELECT * FROM t LIMIT 1.5                | syntax error: expected a whole number after LIMIT, found '1.5' at position 23",
            "SELECT * FROM t LIMIT 1 OFFSET x         | syntax error: expected a whole number after OFFSET, found 'x' at position 32",
            "SELECT * FROM t LIMIT 99999999999999999999 | LIMIT value 99999999999999999999 is out of range",
            "SELECT MAX(*) FROM t                     | syntax error: MAX(*) is not allowed, name a column",
            "SELECT * FROM t WHERE t. = 1             | syntax error: expected a column name after 't.', found '=' at position 26",
            "UPDATE t SET = 5                         | syntax error: expected column name, found '=' at position 14",
            "UPDATE t SET a 5                         | syntax error: expected '=', found '5' at position 16",
            "DELETE t WHERE id = 1                    | syntax error: expected FROM, found 't' at position 8",
            "SELECT * FROM 5                          | syntax error: expected table name, found '5' at position 15",
        })
        void errorsNameTheTokenAndItsPosition(String sql, String message) {
            assertEquals(message, error(sql));
        }

        @Test
        void lexerErrorsSurfaceThroughTheParser() {
            assertEquals("syntax error: unexpected character '?' at position 28", error("SELECT * FROM t WHERE id = ?"));
        }
        @Test
        void missingValueAtTheEndIsReportedAsEndOfStatement() {
            assertAll(
                () -> assertEquals("syntax error: expected a value or column name, found end of statement",
                        error("SELECT * FROM t WHERE")),
                () -> assertEquals("syntax error: expected a value or column name, found end of statement",
                        error("SELECT * FROM t WHERE id =")));
        }
    }

    @Nested
    class NestingLimit {
        private static final String TOO_DEEP = "syntax error: expression nested deeper than " + Parser.MAX_DEPTH + " levels";

        @Test
        void deepParenthesesAreRefusedWithAnError() {
            int n = 100_000;
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "(".repeat(n) + "1=1" + ")".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "(".repeat(n) + "1" + ")".repeat(n)));
        }

        @Test
        void longChainsAndSignsAreRefusedWithAnError() {
            int n = 100_000;
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "-".repeat(n) + "1"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = " + "+".repeat(n) + "1"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE id = 1" + "+1".repeat(n)));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "id = 1 OR ".repeat(n) + "id = 2"));
            assertEquals(TOO_DEEP, error("SELECT * FROM t WHERE " + "NOT ".repeat(n) + "id = 2"));
        }

        @Test
        void nestingUpToTheLimitParses() {
            int n = Parser.MAX_DEPTH - 10;
            Parser.parse("SELECT * FROM t WHERE id = " + "(".repeat(n) + "1" + ")".repeat(n));
            Parser.parse("SELECT * FROM t WHERE id = 1" + "+1".repeat(n));
            Parser.parse("SELECT * FROM t WHERE " + "id = 1 OR ".repeat(n) + "id = 2");
        }
    }
}
