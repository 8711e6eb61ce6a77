package io.respsql.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * One server per test class, on a free port, closed after the class's last test. Test classes
 * run one at a time, so the shared field always belongs to the class being run.
 */
abstract class ServerTestBase {
    protected static TestServer server;

    @BeforeAll
    static void startServer() {
        server = TestServer.start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }
}
