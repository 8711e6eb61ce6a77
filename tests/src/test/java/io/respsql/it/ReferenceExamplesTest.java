package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;

import static io.respsql.it.Resp.EMPTY;
import static io.respsql.it.Resp.OK;
import static io.respsql.it.Resp.integer;
import static io.respsql.it.Resp.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The statements of REFERENCE.md, written as redis-cli command lines and sent three ways: word
 * by word as redis-cli sends them, as the single argument of {@code SQL}, and as one argument
 * after the verb. Every reply is compared byte for byte.
 */
class ReferenceExamplesTest extends ServerTestBase {
    /** The employee table of the 2010 scripts; {@link #EMPLOYEE_ROWS} is SELECT * of it. */
    private static final String[] EMPLOYEE_INSERTS = {
        "(1,66,1,15000.99,marieanne)", "(2,22,2,25000.50,jim)", "(3,33,3,35000.00,carol)", "(4,44,1,45000.25,dave)",
        "(5,55,2,55000.75,erin)", "(6,66,3,65000.10,frank)", "(7,77,1,75000.30,grace)", "(8,88,2,85000.40,heidi)",
        "(9,22,3,95000.60,ivan)", "(10,33,1,105000.70,judy)",
    };
    private static final String[] EMPLOYEE_ROWS = {
        "1,66,1,15000.99,marieanne", "2,22,2,25000.5,jim", "3,33,3,35000,carol", "4,44,1,45000.25,dave",
        "5,55,2,55000.75,erin", "6,66,3,65000.1,frank", "7,77,1,75000.3,grace", "8,88,2,85000.4,heidi",
        "9,22,3,95000.6,ivan", "10,33,1,105000.7,judy",
    };

    @AfterEach
    void dropTables() {
        try (SqlSession s = new SqlSession(server)) {
            s.dropAllTables();
        }
    }

    private static SqlSession session(Split split) {
        return new SqlSession(server, split);
    }

    @Test
    void commandLinesSplitAsTheReferenceShows() {
        assertEquals(List.of("CREATE", "TABLE", "message_list", "(id int primary key, fk int, count INT)"),
                ShellWords.split("CREATE TABLE message_list \"(id int primary key, fk int, count INT)\""));
        assertEquals(List.of("CREATE", "INDEX", "message_list:fk:index", "ON", "message_list", "(fk)"),
                ShellWords.split("CREATE INDEX message_list:fk:index ON message_list \\(fk\\)"));
        assertEquals(List.of("UPDATE", "message_list", "SET", "count=100", "WHERE", "fk=000000000001"),
                ShellWords.split("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000001\""));
        assertEquals(List.of("SELECT", "id,name", "FROM", "employee", "WHERE", "division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4"),
                ShellWords.split("SELECT \"id,name\" FROM employee WHERE \"division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4\""));
        String[] args = Split.VERB.apply(ShellWords.split("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000001\""));
        assertEquals(List.of("UPDATE", "message_list SET count=100 WHERE fk=000000000001"), List.of(args));
        args = Split.SQL.apply(ShellWords.split("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000001\""));
        assertEquals(List.of("SQL", "UPDATE message_list SET count=100 WHERE fk=000000000001"), List.of(args));
    }

    // ---- message_list: the benchmark table ----------------------------------------------------

    @ParameterizedTest
    @EnumSource(Split.class)
    void messageListWithForeignKeyIndex(Split split) {
        try (SqlSession s = session(split)) {
            s.expect("CREATE TABLE message_list \"(id int primary key, fk int, count INT)\"", OK);
            s.expect("CREATE INDEX message_list:fk:index ON message_list \\(fk\\)", OK);
            // gen-benchmark's request with its zero-padded keys: (n, n % 2, 4)
            s.expect("INSERT INTO message_list VALUES \"(000000000001,000000000001,4)\"", OK);
            s.expect("INSERT INTO message_list VALUES \"(000000000002,000000000000,4)\"", OK);
            s.expect("INSERT INTO message_list VALUES \"(000000000003,000000000001,4)\"", OK);
            s.expect("INSERT INTO message_list VALUES \"(000000000004,000000000000,4)\"", OK);

            s.expect("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000001\"", integer(2));
            s.expect("SELECT \"*\" FROM message_list WHERE \"fk=000000000001\" ORDER BY id", rows("1,1,100", "3,1,100"));
            s.expect("SELECT \"*\" FROM message_list WHERE \"fk=000000000000\" ORDER BY id", rows("2,0,4", "4,0,4"));
            s.expect("SELECT count FROM message_list WHERE id = 000000000003", rows("100"));
            s.expect("SELECT \"*\" FROM message_list WHERE fk=7", EMPTY);
            s.expect("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000007\"", integer(0));
            s.expect("EXPLAIN SELECT \"*\" FROM message_list WHERE \"fk=000000000001\"",
                    rows("index probe on message_list using message_list:fk:index (fk=000000000001)"));

            s.expect("UPDATE message_list SET \"count=count+1\" WHERE \"fk=000000000000\"", integer(2));
            s.expect("UPDATE message_list SET count=count+1 WHERE id=2", integer(1));
            s.expect("SELECT id,count FROM message_list WHERE \"id BETWEEN 1 AND 4\" ORDER BY id",
                    rows("1,100", "2,6", "3,100", "4,5"));
            s.expect("SELECT \"COUNT(*)\" FROM message_list", integer(4));
            s.expect("DROP TABLE message_list", integer(3)); // the table, its primary key and one index
            s.expect("SELECT \"COUNT(*)\" FROM message_list", Resp.error("ERR table 'message_list' does not exist"));
        }
    }

    // ---- employee: single-table statements ------------------------------------------------------

    private static void createEmployees(SqlSession s) {
        s.expect("CREATE TABLE employee \"(id int primary key, division int, health int, salary FLOAT, name TEXT)\"", OK);
        s.expect("CREATE INDEX employee:division:index ON employee \\(division\\)", OK);
        for (String values : EMPLOYEE_INSERTS) {
            s.expect("INSERT INTO employee VALUES \"" + values + "\"", OK);
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void createTableAsWrittenInTheReference(Split split) {
        try (SqlSession s = session(split)) {
            s.expect("CREATE TABLE t \"(id int primary key, division int, salary FLOAT, name TEXT)\"", OK);
            s.expect("INSERT INTO t VALUES \"(1,66,15000.99,marieanne)\"", OK);
            s.expect("SELECT \"*\" FROM t WHERE id = 1", rows("1,66,15000.99,marieanne"));
            // types and keywords in any case
            s.expect("create table u \"(ID Int Primary Key, Salary float, NAME text)\"", OK);
            s.expect("insert into u values \"(7,1.25,Bob)\"", OK);
            s.expect("select id,salary,name from u where id=7", rows("7,1.25,Bob"));
            s.expect("DESC u", rows("ID | INT | PRIMARY KEY", "Salary | FLOAT", "NAME | TEXT",
                    s.info("u").line()));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void selectsByPrimaryKey(Split split) {
        try (SqlSession s = session(split)) {
            createEmployees(s);
            s.expect("SELECT \"*\" FROM employee WHERE id = 1", rows(EMPLOYEE_ROWS[0]));
            s.expect("SELECT name,salary FROM employee WHERE id=2", rows("jim,25000.5"));
            // a primary-key miss is an empty multi-bulk, not the 2010 null bulk
            s.expect("SELECT \"*\" FROM employee WHERE id = 22", EMPTY);
            s.expect("SELECT name FROM employee WHERE id=000000000010", rows("judy"));
            s.expect("SELECT \"*\" FROM employee WHERE id BETWEEN 4 AND 9 ORDER BY id DESC LIMIT 4 OFFSET 1",
                    rows(EMPLOYEE_ROWS[7], EMPLOYEE_ROWS[6], EMPLOYEE_ROWS[5], EMPLOYEE_ROWS[4]));
            s.expect("SELECT id FROM employee WHERE id BETWEEN 4 AND 9 ORDER BY id LIMIT 2", rows("4", "5"));
            s.expect("SELECT id FROM employee WHERE id BETWEEN 4 AND 9 ORDER BY id DESC LIMIT 4 OFFSET 10", EMPTY);
            s.expect("SELECT id FROM employee WHERE id BETWEEN 40 AND 90", EMPTY);
            s.expect("SELECT \"*\" FROM employee WHERE \"id IN (1,2,3,4)\" ORDER BY id",
                    rows(EMPLOYEE_ROWS[0], EMPLOYEE_ROWS[1], EMPLOYEE_ROWS[2], EMPLOYEE_ROWS[3]));
            s.expectRowsInAnyOrder("SELECT \"*\" FROM employee WHERE id IN \\(1,2,3,4\\)",
                    EMPLOYEE_ROWS[0], EMPLOYEE_ROWS[1], EMPLOYEE_ROWS[2], EMPLOYEE_ROWS[3]);
            s.expect("SELECT id FROM employee WHERE id IN \\(4,22,2\\) ORDER BY id DESC", rows("4", "2"));
            s.expect("SELECT id FROM employee WHERE id IN \\(40,22\\)", EMPTY);
            s.expect("SELECT \"*\" FROM employee ORDER BY id", rows(EMPLOYEE_ROWS));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void selectsThroughTheDivisionIndex(Split split) {
        try (SqlSession s = session(split)) {
            createEmployees(s);
            s.expect("SELECT id,name FROM employee WHERE division = 22 ORDER BY id", rows("2,jim", "9,ivan"));
            s.expectRowsInAnyOrder("SELECT \"*\" FROM employee WHERE division = 22", EMPLOYEE_ROWS[1], EMPLOYEE_ROWS[8]);
            s.expect("SELECT id,name FROM employee WHERE division = 23", EMPTY);
            s.expect("SELECT \"id,name\" FROM employee WHERE \"division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4\"",
                    rows("1,marieanne", "10,judy", "2,jim", "9,ivan"));
            s.expect("SELECT \"COUNT(*)\" FROM employee WHERE division = 66", integer(2));
            s.expect("SELECT \"COUNT(*)\" FROM employee WHERE division = 67", integer(0));
            s.expect("SELECT \"COUNT(*)\" FROM employee", integer(10));
            s.expect("SELECT \"SUM(id),MIN(name),MAX(salary),AVG(id)\" FROM employee WHERE division = 22",
                    rows("11,ivan,95000.6,5.5"));
            s.expect("EXPLAIN SELECT id FROM employee WHERE division = 22",
                    rows("index probe on employee using employee:division:index (division = 22)"));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void insertReturnSizeRepliesTheTableSize(Split split) {
        try (SqlSession s = session(split)) {
            createEmployees(s);
            String reply = s.call("INSERT INTO employee VALUES \"(11,99,2,1.5,zed)\" RETURN SIZE");
            long size = SqlSession.Replies.integer(reply);
            SqlSession.TableInfo info = s.info("employee");
            assertEquals(11, info.rows());
            assertEquals(info.dataBytes() + info.indexBytes(), size, "data_bytes + index_bytes");
            s.expect("SELECT \"*\" FROM employee WHERE id = 11", rows("11,99,2,1.5,zed"));
            s.expect("SELECT \"COUNT(*)\" FROM employee", integer(11));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void updatesByPrimaryKey(Split split) {
        try (SqlSession s = session(split)) {
            createEmployees(s);
            s.expect("UPDATE employee SET salary=5.55,name=NEWNAME,division=66 WHERE id=1", integer(1));
            s.expect("SELECT \"*\" FROM employee WHERE id = 1", rows("1,66,1,5.55,NEWNAME"));
            // moving a row to another division moves it in the index
            s.expect("UPDATE employee SET salary=5.55,name=NEWNAME,division=66 WHERE id=9", integer(1));
            s.expect("SELECT id FROM employee WHERE division = 22", rows("2"));
            s.expect("SELECT id,name FROM employee WHERE division = 66 ORDER BY id", rows("1,NEWNAME", "6,frank", "9,NEWNAME"));
            s.expect("UPDATE employee SET salary=1 WHERE id=12", integer(0));

            s.expect("UPDATE employee SET id=100 WHERE id=1", integer(1));
            s.expect("SELECT \"*\" FROM employee WHERE id = 1", EMPTY);
            s.expect("SELECT \"*\" FROM employee WHERE id = 100", rows("100,66,1,5.55,NEWNAME"));
            s.expect("SELECT id FROM employee WHERE id BETWEEN 1 AND 3 ORDER BY id", rows("2", "3"));
            s.expect("SELECT id FROM employee WHERE division = 66 ORDER BY id", rows("6", "9", "100"));
            s.expect("SELECT \"COUNT(*)\" FROM employee", integer(10));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void describeDumpDropIndexDropTable(Split split) {
        try (SqlSession s = session(split)) {
            s.expect("CREATE TABLE employee \"(id int primary key, division int, health int, salary FLOAT, name TEXT)\"", OK);
            s.expect("CREATE INDEX employee:division:index ON employee \\(division\\)", OK);
            s.expect("INSERT INTO employee VALUES \"(2,22,2,25000.50,jim)\"", OK);
            s.expect("INSERT INTO employee VALUES \"(1,66,1,15000.99,marieanne)\"", OK);
            s.expect("INSERT INTO employee VALUES \"(3,33,3,35000.00,'o''brien')\"", OK);

            s.expect("DESC employee", rows("id | INT | PRIMARY KEY", "division | INT | INDEX employee:division:index",
                    "health | INT", "salary | FLOAT", "name | TEXT", s.info("employee").line()));
            assertEquals(3, s.info("employee").rows());
            List<String> dump = List.of(
                    "CREATE TABLE employee (id INT PRIMARY KEY, division INT, health INT, salary FLOAT, name TEXT)",
                    "CREATE INDEX employee:division:index ON employee (division)",
                    "INSERT INTO employee VALUES (1,66,1,15000.99,'marieanne')",
                    "INSERT INTO employee VALUES (2,22,2,25000.5,'jim')",
                    "INSERT INTO employee VALUES (3,33,3,35000,'o''brien')");
            s.expect("DUMP employee", rows(dump));

            s.expect("DROP INDEX employee:division:index", OK);
            s.expect("EXPLAIN SELECT id FROM employee WHERE division = 22",
                    rows("full scan of employee; filter division = 22"));
            s.expect("SELECT id FROM employee WHERE division = 22", rows("2"));
            s.expect("DESC employee", rows("id | INT | PRIMARY KEY", "division | INT", "health | INT",
                    "salary | FLOAT", "name | TEXT", s.info("employee").line()));
            s.expect("DUMP employee", rows(dump.get(0), dump.get(2), dump.get(3), dump.get(4)));
            s.expect("DROP TABLE employee", integer(2));
            s.expect("DESC employee", Resp.error("ERR table 'employee' does not exist"));

            // the dump recreates the table exactly
            for (String statement : dump) {
                s.expectSql(statement, OK);
            }
            s.expect("DUMP employee", rows(dump));
            s.expect("SELECT name FROM employee WHERE division = 33", rows("o'brien"));
            s.expect("DROP TABLE employee", integer(3));
        }
    }

    @Test
    void dumpRecreatesValuesOfEveryType() {
        try (SqlSession s = session(Split.SQL)) {
            s.expectSql("CREATE TABLE every (id bigint primary key, i int, f float, t text)", OK);
            s.expectSql("CREATE INDEX every:t:index ON every (t)", OK);
            s.expectSql("INSERT INTO every VALUES (-9223372036854775808,-2147483648,-0.0,''),"
                    + "(9223372036854775807,2147483647,1e300,'it''s, \"quoted\"'),(0,0,0.1,'héllo wörld'),"
                    + "(7,-7,-1.5e-7,  spaced out  )", OK);
            List<String> dump = SqlSession.Replies.bulks(s.sql("DUMP every"));
            assertEquals(List.of(
                    "CREATE TABLE every (id BIGINT PRIMARY KEY, i INT, f FLOAT, t TEXT)",
                    "CREATE INDEX every:t:index ON every (t)",
                    "INSERT INTO every VALUES (-9223372036854775808,-2147483648,-0.0,'')",
                    "INSERT INTO every VALUES (0,0,0.1,'héllo wörld')",
                    "INSERT INTO every VALUES (7,-7,-1.5E-7,'spaced out')",
                    "INSERT INTO every VALUES (9223372036854775807,2147483647,1.0E300,'it''s, \"quoted\"')"), dump);
            String select = s.sql("SELECT * FROM every ORDER BY id");
            s.expectSql("DROP TABLE every", integer(3));
            for (String statement : dump) {
                s.expectSql(statement, OK);
            }
            s.expectSql("DUMP every", rows(dump));
            s.expectSql("SELECT * FROM every ORDER BY id", select);
            s.expectSql("SELECT id FROM every WHERE t = 'héllo wörld'", rows("0"));
        }
    }

    @Test
    void dumpOfATextPrimaryKeyIsInKeyOrder() {
        try (SqlSession s = session(Split.SQL)) {
            s.expectSql("CREATE TABLE accounts (name text primary key, v int)", OK);
            s.expectSql("INSERT INTO accounts VALUES ('customer-b',1),('customer-a',2),('zzz',3),('customer-c',4),('aaa',5)", OK);
            s.expectSql("DUMP accounts", rows(
                    "CREATE TABLE accounts (name TEXT PRIMARY KEY, v INT)",
                    "INSERT INTO accounts VALUES ('aaa',5)",
                    "INSERT INTO accounts VALUES ('customer-a',2)",
                    "INSERT INTO accounts VALUES ('customer-b',1)",
                    "INSERT INTO accounts VALUES ('customer-c',4)",
                    "INSERT INTO accounts VALUES ('zzz',3)"));
        }
    }

    // ---- customer: text values, IN, ranges on text, DELETE --------------------------------------

    private static void createCustomers(SqlSession s) {
        s.expect("CREATE TABLE customer \"(id int primary key, employee int, hobby TEXT)\"", OK);
        s.expect("CREATE INDEX customer:employee:index ON customer \\(employee\\)", OK);
        s.expect("CREATE INDEX customer:hobby:index ON customer \\(hobby\\)", OK);
        s.expect("INSERT INTO customer VALUES \"(1,2,yachting)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(2,3,painting)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(3,4,wine)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(4,4,zebra riding)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(5,5,vodka)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(6,6,running)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(7,4,writing)\"", OK);
        s.expect("INSERT INTO customer VALUES \"(8,1,painting)\"", OK);
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void textValuesInListsAndRanges(Split split) {
        try (SqlSession s = session(split)) {
            createCustomers(s);
            s.expect("SELECT \"*\" FROM customer WHERE id = 4", rows("4,4,zebra riding"));
            s.expect("SELECT \"*\" FROM customer WHERE \"hobby IN (yachting,painting)\" ORDER BY id",
                    rows("1,2,yachting", "2,3,painting", "8,1,painting"));
            s.expectRowsInAnyOrder("SELECT \"*\" FROM customer WHERE hobby IN \\(yachting,painting\\)",
                    "1,2,yachting", "2,3,painting", "8,1,painting");
            s.expect("SELECT id FROM customer WHERE \"hobby IN (skiing,golf)\"", EMPTY);
            s.expect("SELECT \"COUNT(*)\" FROM customer WHERE employee = 4", integer(3));
            s.expect("SELECT id,hobby FROM customer WHERE hobby BETWEEN v AND z ORDER BY hobby",
                    rows("5,vodka", "3,wine", "7,writing", "1,yachting"));
            s.expect("SELECT id FROM customer WHERE hobby = painting ORDER BY id", rows("2", "8"));
            s.expect("SELECT id FROM customer WHERE \"hobby = 'zebra riding'\"", rows("4"));
            s.expect("EXPLAIN SELECT id FROM customer WHERE \"hobby IN (yachting,painting)\"",
                    rows("index probe on customer using customer:hobby:index (hobby IN (yachting,painting));"
                            + " filter hobby IN ('yachting', 'painting')"));

            s.expect("UPDATE customer SET hobby=skiing WHERE hobby BETWEEN v AND z", integer(4));
            s.expect("SELECT id FROM customer WHERE hobby BETWEEN v AND z", EMPTY);
            s.expect("SELECT id FROM customer WHERE hobby = skiing ORDER BY id", rows("1", "3", "5", "7"));
            s.expect("SELECT \"*\" FROM customer ORDER BY id", rows("1,2,skiing", "2,3,painting", "3,4,skiing",
                    "4,4,zebra riding", "5,5,skiing", "6,6,running", "7,4,skiing", "8,1,painting"));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void deletesByKeyAndByRange(Split split) {
        try (SqlSession s = session(split)) {
            createCustomers(s);
            s.expect("DELETE FROM customer WHERE id = 3", integer(1));
            s.expect("DELETE FROM customer WHERE id = 3", integer(0));
            s.expect("SELECT \"*\" FROM customer WHERE id = 3", EMPTY);
            s.expect("DELETE FROM customer WHERE employee BETWEEN 4 AND 5", integer(3));
            s.expect("SELECT \"COUNT(*)\" FROM customer WHERE employee = 4", integer(0));
            s.expect("SELECT \"COUNT(*)\" FROM customer", integer(4));
            s.expect("SELECT id,hobby FROM customer ORDER BY id", rows("1,yachting", "2,painting", "6,running", "8,painting"));
            s.expect("SELECT id FROM customer WHERE hobby BETWEEN v AND z", rows("1"));
            s.expect("DELETE FROM customer WHERE employee BETWEEN 4 AND 5", integer(0));
            s.expect("DROP TABLE customer", integer(4));
        }
    }

    // ---- joins --------------------------------------------------------------------------------

    private static void createDivisionsAndWorkers(SqlSession s) {
        s.expect("CREATE TABLE division \"(id int primary key, name TEXT, location TEXT)\"", OK);
        s.expect("CREATE TABLE worker \"(id int primary key, division int, health int, salary FLOAT, name TEXT)\"", OK);
        s.expect("CREATE INDEX worker:division:index ON worker \\(division\\)", OK);
        s.expect("CREATE TABLE health \"(id int primary key, plan TEXT)\"", OK);
        for (String d : new String[] {"(11,bosses,N.Y.C.)", "(22,workers,Chicago)", "(33,execs,Dubai)", "(55,bankers,Zurich)"}) {
            s.expect("INSERT INTO division VALUES \"" + d + "\"", OK);
        }
        for (String w : new String[] {"(1,11,2,60000.66,jim)", "(2,22,1,30000.33,jack)", "(3,33,4,90000.99,bob)",
            "(4,44,3,70000.77,bill)", "(5,55,6,40000.44,jane)", "(6,66,5,50000.55,rich)", "(7,22,3,80000.88,kim)"}) {
            s.expect("INSERT INTO worker VALUES \"" + w + "\"", OK);
        }
        s.expect("INSERT INTO health VALUES \"(1,none),(2,basic),(3,premium),(4,gold),(5,platinum),(6,diamond)\"", OK);
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void twoTableJoin(Split split) {
        try (SqlSession s = session(split)) {
            createDivisionsAndWorkers(s);
            String join = "SELECT division.name,worker.name FROM division,worker WHERE division.id = worker.division"
                    + " AND division.id BETWEEN 11 AND 33";
            s.expect(join + " ORDER BY worker.salary DESC",
                    rows("execs,bob", "workers,kim", "bosses,jim", "workers,jack"));
            s.expect(join + " ORDER BY worker.salary", rows("workers,jack", "bosses,jim", "workers,kim", "execs,bob"));
            s.expect(join + " ORDER BY worker.salary DESC LIMIT 2 OFFSET 1", rows("workers,kim", "bosses,jim"));
            s.expect("SELECT division.name,worker.name FROM division,worker WHERE division.id = worker.division"
                    + " AND division.id BETWEEN 40 AND 50", EMPTY);
            s.expect("EXPLAIN " + join + " ORDER BY worker.salary DESC", rows(
                    "join order: division -> worker",
                    "primary key range on division using division:id:pk (division.id BETWEEN 11 AND 33)",
                    "index probe on worker using worker:division:index (division = division.id); filter division.id = worker.division",
                    "sort by 1 key(s)"));
            s.expect("SELECT \"COUNT(*)\" FROM division,worker WHERE division.id = worker.division AND division.id BETWEEN 11 AND 33",
                    integer(4));
        }
    }

    @ParameterizedTest
    @EnumSource(Split.class)
    void threeTableJoin(Split split) {
        try (SqlSession s = session(split)) {
            createDivisionsAndWorkers(s);
            String join = "SELECT division.name,worker.name,health.plan FROM division,worker,health"
                    + " WHERE division.id = worker.division AND worker.health = health.id"
                    + " AND division.id BETWEEN 11 AND 33 ORDER BY worker.salary DESC";
            s.expect(join, rows("execs,bob,gold", "workers,kim,premium", "bosses,jim,basic", "workers,jack,none"));
            s.expect("EXPLAIN " + join, rows(
                    "join order: division -> worker -> health",
                    "primary key range on division using division:id:pk (division.id BETWEEN 11 AND 33)",
                    "index probe on worker using worker:division:index (division = division.id); filter division.id = worker.division",
                    "primary key probe on health using health:id:pk (id = worker.health); filter worker.health = health.id",
                    "sort by 1 key(s)"));
            // the join follows updates of the joined column
            s.expect("UPDATE worker SET division=11 WHERE id=3", integer(1));
            s.expect(join, rows("bosses,bob,gold", "workers,kim,premium", "bosses,jim,basic", "workers,jack,none"));
            s.expect("UPDATE worker SET health=6 WHERE \"division = 22\"", integer(2));
            s.expect(join, rows("bosses,bob,gold", "workers,kim,diamond", "bosses,jim,basic", "workers,jack,diamond"));
        }
    }

    // ---- SCANSELECT --------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(Split.class)
    void scanSelectWithAnyPredicate(Split split) {
        try (SqlSession s = session(split)) {
            createEmployees(s);
            s.expect("SCANSELECT id,name FROM employee WHERE \"salary > 80000 ORDER BY id\"",
                    rows("8,heidi", "9,ivan", "10,judy"));
            s.expect("EXPLAIN SCANSELECT id,name FROM employee WHERE \"salary > 80000\"",
                    rows("full scan of employee; filter salary > 80000"));
            s.expect("SCANSELECT name FROM employee WHERE \"health = 3 AND division != 22\"", rows("carol", "frank"));
            s.expect("SCANSELECT id FROM employee WHERE \"name = jim OR name = judy\" ORDER BY id DESC", rows("10", "2"));
            s.expect("SCANSELECT id FROM employee WHERE \"division + health > 88\"", rows("8"));
            s.expect("SCANSELECT id FROM employee WHERE \"name BETWEEN x AND z\"", EMPTY);
            s.expect("SCANSELECT \"COUNT(*)\" FROM employee WHERE \"salary < 50000\"", integer(4));
        }
    }
}
