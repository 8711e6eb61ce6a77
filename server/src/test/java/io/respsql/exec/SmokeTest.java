package io.respsql.exec;

import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void smoke() {
        EngineHarness h = new EngineHarness();
        String[] stmts = {
            "CREATE TABLE employee (id int primary key, division int, salary FLOAT, name TEXT)",
            "CREATE INDEX employee:division:index ON employee (division)",
            "INSERT INTO employee VALUES (1,66,15000.99,marieanne)",
            "INSERT INTO employee VALUES (2,22,12000,'bob smith')",
            "INSERT INTO employee VALUES (3,22,5.5,carl), (4,33,7,dave)",
            "INSERT INTO employee VALUES (3,22,5.5,carl)",
            "SELECT * FROM employee WHERE id = 2",
            "SELECT name,salary FROM employee WHERE id=2",
            "SELECT * FROM employee WHERE division = 22",
            "SELECT id,name FROM employee WHERE division BETWEEN 22 AND 77 ORDER BY name DESC LIMIT 4",
            "SELECT * FROM employee WHERE id BETWEEN 1 AND 9 ORDER BY id DESC LIMIT 2 OFFSET 1",
            "SELECT COUNT(*) FROM employee WHERE division = 22",
            "SELECT COUNT(*) FROM employee",
            "SELECT * FROM employee WHERE name IN (carl,dave)",
            "UPDATE employee SET salary=5.55,name=NEWNAME,division=66 WHERE id=1",
            "UPDATE employee SET division=division+1 WHERE division = 22",
            "SELECT * FROM employee",
            "UPDATE employee SET id=100 WHERE id=1",
            "UPDATE employee SET id=2 WHERE id=100",
            "EXPLAIN SELECT * FROM employee WHERE division = 23",
            "EXPLAIN UPDATE employee SET salary=1 WHERE id = 3 OR division = 66",
            "DELETE FROM employee WHERE division BETWEEN 23 AND 24",
            "SELECT * FROM employee",
            "DESC employee",
            "DUMP employee",
            "SELECT SUM(salary), MIN(id), MAX(name), AVG(id) FROM employee",
            "UPDATE employee SET division=9999999999 WHERE id = 4",
            "SELECT * FROM nope",
            "SELECT nope FROM employee",
            "INSERT INTO employee VALUES (abc,1,1,x)",
            "DROP TABLE employee",
        };
        for (String s : stmts) {
            System.out.println(s + "\n   -> " + h.run(s));
        }
    }
}
