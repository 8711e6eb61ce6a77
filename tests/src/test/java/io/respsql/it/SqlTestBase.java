package io.respsql.it;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A server per class and a fresh SQL session per test; every table is dropped after each test. */
abstract class SqlTestBase extends ServerTestBase {
    protected SqlSession s;

    @BeforeEach
    void openSession() {
        s = new SqlSession(server);
    }

    @AfterEach
    void dropTablesAndClose() {
        try {
            s.dropAllTables();
        } finally {
            s.close();
        }
    }
}
