package io.respsql.it;

import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where two features meet on one server (MULTI, Pub/Sub, RESP3, CLIENT), with Redis 7's replies
 * (checked against redis-server 7.0).
 */
class FeatureInteractionTest {
    private static final String OK = "+OK\r\n";
    private static final String QUEUED = "+QUEUED\r\n";

    /** The {@code CLIENT LIST} line of client {@code id}. */
    private static String line(RespConnection c, long id) throws Exception {
        String list = c.call("CLIENT", "LIST");
        Matcher m = Pattern.compile("(?m)^id=" + id + " .*$").matcher(list);
        assertTrue(m.find(), "client " + id + " in " + list);
        return m.group();
    }

    private static long id(RespConnection c) throws Exception {
        String reply = c.call("CLIENT", "ID");
        return Long.parseLong(reply.substring(1, reply.length() - 2));
    }

    @Test
    void clientListShowsATransactionAndItsQueuedCount() throws Exception {
        try (TestServer s = TestServer.start()) {
            RespConnection a = s.raw();
            RespConnection b = s.raw();
            long id = id(a);
            assertTrue(line(b, id).contains(" flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 "), line(b, id));
            assertEquals(OK, a.call("MULTI"));
            assertEquals(QUEUED, a.call("PING"));
            assertEquals(QUEUED, a.call("SQL", "SHOW TABLES"));
            // as Redis: flag x, and multi= the number of queued commands
            assertTrue(line(b, id).contains(" flags=x db=0 sub=0 psub=0 ssub=0 multi=2 "), line(b, id));
            assertEquals("*2\r\n+PONG\r\n*0\r\n", a.call("EXEC"));
            assertTrue(line(b, id).contains(" flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 "), line(b, id));
            // a RESP3 subscriber inside MULTI carries both letters
            assertTrue(a.call("HELLO", "3").startsWith("%"));
            assertTrue(a.call("SUBSCRIBE", "ch").startsWith(">3\r\n"));
            assertEquals(OK, a.call("MULTI"));
            assertTrue(line(b, id).contains(" flags=Px db=0 sub=1 psub=0 ssub=0 multi=0 "), line(b, id));
        }
    }

    @Test
    void latencyReportsForPeopleAreVerbatimInResp3() throws Exception {
        try (TestServer s = TestServer.start(); RespConnection c = s.raw()) {
            assertEquals(OK, c.call("CONFIG", "SET", "latency-monitor-threshold", "1"));
            assertEquals(OK, c.call("SQL", "CREATE TABLE big (id INT PRIMARY KEY, v INT)"));
            // one statement long enough (well over 1 ms) to leave a "command" latency sample
            assertEquals(OK, c.call("SQL", SqlText.insert("big", 1, 200_000, n -> n + "," + n)));
            String doctor2 = c.call("LATENCY", "DOCTOR");
            String graph2 = c.call("LATENCY", "GRAPH", "command");
            assertTrue(doctor2.startsWith("$"), doctor2);
            assertTrue(graph2.startsWith("$") && graph2.contains("command - high "), graph2);
            assertTrue(c.call("HELLO", "3").startsWith("%"));
            String doctor3 = c.call("LATENCY", "DOCTOR");
            String graph3 = c.call("LATENCY", "GRAPH", "command");
            assertTrue(doctor3.startsWith("=") && doctor3.contains("\r\ntxt:"), doctor3);
            assertTrue(graph3.startsWith("=") && graph3.contains("\r\ntxt:command - high "), graph3);
        }
    }

    @Test
    void clientKillTypeMasterDropsTheLinkWhichResumes() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start()) {
            RespConnection m = master.raw();
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY, v INT)"));
            ReplicatedTransactionTest.replicate(master, replica);
            RespConnection r = replica.raw();
            assertEquals(":0\r\n", m.call("CLIENT", "KILL", "TYPE", "master")); // a master has no master link
            // Sentinel's failover kills normal and pubsub clients (here: the connection replicate() used), never the link
            assertEquals(":1\r\n", r.call("CLIENT", "KILL", "TYPE", "normal"));
            assertEquals(":0\r\n", r.call("CLIENT", "KILL", "TYPE", "pubsub"));
            assertEquals("up", ReplicatedTransactionTest.info(r, "replication", "master_link_status"));
            String partial = ReplicatedTransactionTest.info(m, "stats", "sync_partial_ok");
            assertEquals(":1\r\n", r.call("CLIENT", "KILL", "TYPE", "master"));
            // it reconnects by itself and resumes where it was: a partial resync on the master
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (ReplicatedTransactionTest.info(m, "stats", "sync_partial_ok").equals(partial)
                    || !"up".equals(ReplicatedTransactionTest.info(r, "replication", "master_link_status"))) {
                assertTrue(System.nanoTime() < deadline, "the link did not come back by partial resync");
                Thread.sleep(10);
            }
            assertEquals(OK, m.call("SQL", "INSERT INTO t VALUES (1, 1)"));
            assertEquals(":1\r\n", m.call("WAIT", "1", "10000"));
            assertEquals(":1\r\n", r.call("SQL", "SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void publishOnAMasterReachesSubscribersOnItsReplicas() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start()) {
            ReplicatedTransactionTest.replicate(master, replica);
            RespConnection sub2 = replica.raw();
            RespConnection sub3 = replica.raw();
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$4\r\nnews\r\n:1\r\n", sub2.call("SUBSCRIBE", "news"));
            assertTrue(sub3.call("HELLO", "3").startsWith("%"));
            assertEquals(">3\r\n$10\r\npsubscribe\r\n$2\r\nn*\r\n:1\r\n", sub3.call("PSUBSCRIBE", "n*"));
            RespConnection m = master.raw();
            // the reply counts the master's own subscribers only (none), as Redis
            assertEquals(":0\r\n", m.call("PUBLISH", "news", "hello\r\nworld"));
            assertEquals("*3\r\n$7\r\nmessage\r\n$4\r\nnews\r\n$12\r\nhello\r\nworld\r\n", sub2.readReply());
            assertEquals(">4\r\n$8\r\npmessage\r\n$2\r\nn*\r\n$4\r\nnews\r\n$12\r\nhello\r\nworld\r\n", sub3.readReply());
            // the stream stays in step: data written after it still arrives
            assertEquals(OK, m.call("SQL", "CREATE TABLE t (id INT PRIMARY KEY)"));
            assertEquals(":1\r\n", m.call("WAIT", "1", "10000"));
            assertEquals(":0\r\n", replica.raw().call("SQL", "SELECT COUNT(*) FROM t"));
        }
    }

    @Test
    void aResp3SubscriberPublishingInItsOwnBlockGetsTheMessageAfterTheReply() throws Exception {
        try (TestServer s = TestServer.start()) {
            RespConnection c = s.raw();
            RespConnection other = s.raw();
            assertTrue(c.call("HELLO", "3").startsWith("%"));
            assertEquals(">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n", c.call("SUBSCRIBE", "ch"));
            assertEquals("*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n", other.call("SUBSCRIBE", "ch"));
            assertEquals(OK, c.call("SQL", "CREATE TABLE pk (id INT PRIMARY KEY)"));
            assertEquals(OK, c.call("SQL", "INSERT INTO pk VALUES (1)"));
            String push = ">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nx\r\n";

            // a block that succeeds: the array holds the replies only, the message follows it
            assertEquals(OK, c.call("MULTI"));
            assertEquals(QUEUED, c.call("PUBLISH", "ch", "x"));
            assertEquals(QUEUED, c.call("PING"));
            assertEquals("*2\r\n:2\r\n+PONG\r\n", c.call("EXEC"));
            assertEquals(push, c.readReply());
            assertEquals("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nx\r\n", other.readReply());

            // a block whose statement fails: the message was published (the other subscriber has it),
            // so the publisher gets it too, after the error, not dropped with the discarded array
            assertEquals(OK, c.call("MULTI"));
            assertEquals(QUEUED, c.call("PUBLISH", "ch", "x"));
            assertEquals(QUEUED, c.call("SQL", "INSERT INTO pk VALUES (1)"));
            assertTrue(c.call("EXEC").startsWith("-ERR EXEC aborted: statement 2 of 2 failed: "));
            assertEquals(push, c.readReply());
            assertEquals("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$1\r\nx\r\n", other.readReply());
            assertEquals("+PONG\r\n", c.call("PING"));
        }
    }

    @Test
    void infoClientsLeavesReplicaLinksOutAndCountsClientsBlockedInWait() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start()) {
            ReplicatedTransactionTest.replicate(master, replica);
            RespConnection m = master.raw();
            assertEquals("1", ReplicatedTransactionTest.info(m, "replication", "connected_slaves"));
            // as Redis: connected_clients counts the clients, not the replicas' links
            assertEquals("1", ReplicatedTransactionTest.info(m, "clients", "connected_clients"));
            assertEquals("0", ReplicatedTransactionTest.info(m, "clients", "blocked_clients"));
            RespConnection waiter = master.raw();
            waiter.sendCommand("WAIT", "2", "3000"); // one replica: blocks until the timeout
            awaitInfo(m, "blocked_clients", "1");
            assertEquals("2", ReplicatedTransactionTest.info(m, "clients", "connected_clients"));
            assertEquals(":1\r\n", waiter.readReply());
            assertEquals("0", ReplicatedTransactionTest.info(m, "clients", "blocked_clients"));
        }
    }

    private static void awaitInfo(RespConnection c, String field, String value) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!value.equals(ReplicatedTransactionTest.info(c, "clients", field))) {
            assertTrue(System.nanoTime() < deadline, field + " never became " + value);
            Thread.sleep(10);
        }
    }

    @Test
    void replicaofReleasesBlockedWaitsWithUnblockedAndClosesThem() throws Exception {
        try (TestServer master = TestServer.start(); TestServer replica = TestServer.start();
             TestServer other = TestServer.start()) {
            ReplicatedTransactionTest.replicate(master, replica);
            RespConnection m = master.raw();
            RespConnection waiter = master.raw();
            waiter.sendCommand("WAIT", "2", "0"); // one replica: blocks until released
            awaitInfo(m, "blocked_clients", "1");
            // as Redis (redis-server 7.0.15): -UNBLOCKED, then the connection closes
            assertEquals(OK, m.call("REPLICAOF", TestServer.HOST, Integer.toString(other.port())));
            assertEquals("-UNBLOCKED force unblock from blocking operation, instance state changed (master -> replica?)\r\n",
                    waiter.readReply());
            assertTrue(waiter.awaitClosedByServer(10_000));
            assertEquals("0", ReplicatedTransactionTest.info(m, "clients", "blocked_clients"));
        }
    }
}
