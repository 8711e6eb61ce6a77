package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The SQL examples of REFERENCE.md through the real redis-cli, one-shot, with the argv words a
 * shell gives it: {@code redis-cli CREATE INDEX message_list:fk:index ON message_list \(fk\)}
 * runs redis-cli with the word {@code (fk)}. Standard input is not a terminal, so redis-cli prints
 * raw values: {@code OK}, {@code 2}, one line per row, an empty line for an empty result.
 */
class RedisCliSqlTest extends ServerTestBase {
    @BeforeAll
    static void needsRedisCli() {
        RedisCli.assumeAvailable();
    }

    @AfterEach
    void dropTables() {
        try (SqlSession s = new SqlSession(server)) {
            s.dropAllTables();
        }
    }

    /** Runs redis-cli with the words of a shell command line (after "redis-cli -p PORT"); returns what it printed. */
    private static String cli(String commandLine) {
        RedisCli.Result r = RedisCli.run(server, ShellWords.split(commandLine));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }

    /** The output of a command that fails; redis-cli's exit status for error replies differs between versions. */
    private static String cliError(String commandLine) {
        return RedisCli.run(server, ShellWords.split(commandLine)).output();
    }

    private static void expect(String commandLine, String output) {
        assertEquals(output, cli(commandLine), commandLine);
    }

    @Test
    void messageListExamples() {
        expect("CREATE TABLE message_list \"(id int primary key, fk int, count INT)\"", "OK\n");
        expect("CREATE INDEX message_list:fk:index ON message_list \\(fk\\)", "OK\n");
        expect("INSERT INTO message_list VALUES \"(000000000001,000000000001,4)\"", "OK\n");
        expect("INSERT INTO message_list VALUES \"(000000000002,000000000002,4)\"", "OK\n");
        expect("INSERT INTO message_list VALUES \"(000000000003,000000000001,4)\"", "OK\n");
        expect("UPDATE message_list SET \"count=100\" WHERE \"fk=000000000001\"", "2\n");
        expect("SELECT \"*\" FROM message_list WHERE \"fk=000000000001\" ORDER BY id", "1,1,100\n3,1,100\n");
        expect("SELECT count FROM message_list WHERE id=000000000002", "4\n");
        expect("SELECT \"*\" FROM message_list WHERE \"fk=000000000009\"", "\n");
        expect("SELECT \"COUNT(*)\" FROM message_list", "3\n");
        expect("UPDATE message_list SET \"count=count+1\" WHERE \"fk=000000000002\"", "1\n");
        expect("SQL \"SELECT id,count FROM message_list WHERE id BETWEEN 1 AND 3 ORDER BY id DESC\"", "3,100\n2,5\n1,100\n");
        expect("EXPLAIN SELECT \"*\" FROM message_list WHERE \"fk=000000000001\"",
                "index probe on message_list using message_list:fk:index (fk=000000000001)\n");
        String desc = cli("DESC message_list");
        assertTrue(desc.startsWith("id | INT | PRIMARY KEY\nfk | INT | INDEX message_list:fk:index\ncount | INT\n"
                + "INFO: rows=3 data_bytes="), desc);
        expect("DUMP message_list", "CREATE TABLE message_list (id INT PRIMARY KEY, fk INT, count INT)\n"
                + "CREATE INDEX message_list:fk:index ON message_list (fk)\n"
                + "INSERT INTO message_list VALUES (1,1,100)\n"
                + "INSERT INTO message_list VALUES (2,2,5)\n"
                + "INSERT INTO message_list VALUES (3,1,100)\n");
        expect("DELETE FROM message_list WHERE id = 3", "1\n");
        expect("DROP INDEX message_list:fk:index", "OK\n");
        expect("DROP TABLE message_list", "2\n");
    }

    @Test
    void employeeExamples() {
        expect("CREATE TABLE employee \"(id int primary key, division int, health int, salary FLOAT, name TEXT)\"", "OK\n");
        expect("CREATE INDEX employee:division:index ON employee \\(division\\)", "OK\n");
        expect("INSERT INTO employee VALUES \"(1,66,1,15000.99,marieanne)\"", "OK\n");
        expect("INSERT INTO employee VALUES \"(2,22,2,25000.50,jim)\"", "OK\n");
        expect("INSERT INTO employee VALUES \"(3,33,3,35000.00,carol)\"", "OK\n");
        expect("INSERT INTO employee VALUES \"(4,77,1,45000.25,dave)\"", "OK\n");
        String size = cli("INSERT INTO employee VALUES \"(5,88,2,55000.75,erin)\" RETURN SIZE");
        assertTrue(size.matches("[1-9][0-9]*\n"), size);
        expect("SELECT \"*\" FROM employee WHERE id = 1", "1,66,1,15000.99,marieanne\n");
        expect("SELECT name,salary FROM employee WHERE id=2", "jim,25000.5\n");
        expect("SELECT \"*\" FROM employee WHERE id = 22", "\n");
        expect("SELECT \"id,name\" FROM employee WHERE \"division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4\"",
                "1,marieanne\n2,jim\n4,dave\n3,carol\n");
        expect("SELECT id FROM employee WHERE id BETWEEN 1 AND 5 ORDER BY id DESC LIMIT 2 OFFSET 1", "4\n3\n");
        expect("SELECT id FROM employee WHERE \"id IN (1,2,3,4)\" ORDER BY id", "1\n2\n3\n4\n");
        expect("SCANSELECT name FROM employee WHERE \"salary > 40000\" ORDER BY name", "dave\nerin\n");
        expect("UPDATE employee SET salary=5.55,name=NEWNAME,division=66 WHERE id=1", "1\n");
        expect("UPDATE employee SET id=100 WHERE id=1", "1\n");
        expect("SELECT \"*\" FROM employee WHERE id=100", "100,66,1,5.55,NEWNAME\n");
        expect("DELETE FROM employee WHERE division BETWEEN 22 AND 33", "2\n");
        expect("SELECT \"COUNT(*)\" FROM employee", "3\n");
    }

    @Test
    void errorsArePrintedAndTheNextCommandRuns() {
        String out = cliError("SELECT \"*\" FROM nosuch WHERE id = 1");
        assertTrue(out.startsWith("ERR table 'nosuch' does not exist\n"), out);
        out = cliError("SQL \"SELECT * FROM t WHERE id = = 1\"");
        assertTrue(out.startsWith("ERR syntax error: expected a value or column name, found '=' at position 28\n"), out);
        expect("CREATE TABLE t \"(id int primary key)\"", "OK\n");
        out = cliError("INSERT INTO t VALUES \\(abc\\)");
        assertTrue(out.startsWith("ERR value abc is not a valid INT for column 'id'\n"), out);
        expect("SELECT \"COUNT(*)\" FROM t", "0\n");
    }

    @Test
    void statementsReadFromStandardInput() {
        // redis-cli splits each line itself, honouring the same quotes
        String script = String.join("\n",
                "CREATE TABLE customer \"(id int primary key, employee int, hobby TEXT)\"",
                "CREATE INDEX customer:hobby:index ON customer (hobby)",
                "INSERT INTO customer VALUES \"(1,4,yachting)\"",
                "INSERT INTO customer VALUES \"(2,4,painting)\"",
                "INSERT INTO customer VALUES \"(3,5,wine)\"",
                "SELECT id,hobby FROM customer WHERE \"hobby IN (yachting,painting)\" ORDER BY id",
                "SELECT COUNT(*) FROM customer WHERE employee = 4",
                "UPDATE customer SET hobby=skiing WHERE hobby BETWEEN v AND z",
                "SELECT * FROM customer WHERE id = 3",
                "DELETE FROM customer WHERE employee BETWEEN 4 AND 5",
                "DROP TABLE customer") + "\n";
        RedisCli.Result r = RedisCli.run(server, List.of(), script);
        assertEquals("OK\nOK\nOK\nOK\nOK\n1,yachting\n2,painting\n2\n2\n3,5,skiing\n3\n3\n", r.output());
    }

    @Test
    void terminalStyleOutputWhenAskedFor() {
        expect("CREATE TABLE t \"(id int primary key, v int)\"", "OK\n");
        expect("INSERT INTO t VALUES \"(1,10),(2,20)\"", "OK\n");
        assertEquals("(integer) 2\n", RedisCli.run(server, List.of("--no-raw", "UPDATE", "t", "SET", "v=v+1")).output());
        assertEquals("1) \"1,11\"\n2) \"2,21\"\n",
                RedisCli.run(server, List.of("--no-raw", "SELECT", "*", "FROM", "t", "ORDER", "BY", "id")).output());
    }
}
