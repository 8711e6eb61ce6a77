package io.respsql.it.sentinel;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.respsql.it.RespConnection;
import io.respsql.it.TestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisSentinelPool;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Three real Redis Sentinels (Debian's redis-server --sentinel, quorum 2) monitor a RespSQL master:
 * they read its role from INFO, find each other through its Pub/Sub channel
 * {@code __sentinel__:hello}, hand its address to lettuce ({@code redis-sentinel://}) and to
 * jedis ({@code JedisSentinelPool}), and agree that it is down (ODOWN) when it is killed.
 * Without replicas there is nothing to promote: the failover is aborted, and the master is
 * monitored again once it is back. Failover itself is {@link SentinelFailoverTest}.
 */
class SentinelMonitoringTest {
    private static final Duration DISCOVERY = Duration.ofSeconds(60);

    @TempDir
    Path tmp;

    @Test
    void sentinelsMonitorARespSqlMasterAndClientsFindItThroughThem() throws Exception {
        // Skipped on a machine without Redis; under CI (which installs it) a missing one fails.
        assumeTrue(LocalProcess.redisServerInstalled() || System.getenv("CI") != null,
                "redis-server (Debian package redis-server) is not installed");
        int mp = LocalProcess.freePort();
        try (LocalProcess master = LocalProcess.respsql(tmp, "master", mp).start();
             LocalProcess s1 = LocalProcess.sentinel(tmp, "s1", LocalProcess.freePort(), mp, 2, 1000, 5000).start();
             LocalProcess s2 = LocalProcess.sentinel(tmp, "s2", LocalProcess.freePort(), mp, 2, 1000, 5000).start();
             LocalProcess s3 = LocalProcess.sentinel(tmp, "s3", LocalProcess.freePort(), mp, 2, 1000, 5000).start()) {
            // INFO's role:master is read, and the Sentinels found each other through PUBLISH/SUBSCRIBE
            // on the master's __sentinel__:hello channel.
            SentinelView.await("role master seen and two other sentinels found", DISCOVERY,
                    m -> m.get("flags").equals("master") && m.get("role-reported").equals("master")
                            && m.get("num-other-sentinels").equals("2"), s1, s2, s3);
            assertEquals(master.address(), SentinelView.masterAddress(s1));
            try (RespConnection c = master.raw()) {
                assertEquals("*2\r\n$18\r\n__sentinel__:hello\r\n:3\r\n", c.call("PUBSUB", "NUMSUB", "__sentinel__:hello"));
                String clients = c.call("CLIENT", "LIST");
                assertEquals(3, count(clients, "-cmd "), clients);
                assertEquals(3, count(clients, "-pubsub age="), clients);
                assertTrue(clients.matches("(?s).*name=sentinel-[0-9a-f]{8}-pubsub [^\\n]* flags=P db=0 sub=1 .*"), clients);
                assertTrue(c.call("INFO", "replication").contains("role:master\r\n"));
            }

            // lettuce asks a Sentinel for the master, then talks SQL to it.
            RedisURI uri = RedisURI.create("redis-sentinel://" + s1.address() + "," + s2.address() + "," + s3.address() + "#m");
            RedisClient lettuce = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> c = lettuce.connect()) {
                assertEquals("OK", TestServer.dispatch(c.sync(), "CREATE", "TABLE", "t", "(id int primary key, v text)"));
                assertEquals("OK", TestServer.dispatch(c.sync(), "INSERT", "INTO", "t", "VALUES", "(1, 'lettuce')"));
            } finally {
                lettuce.shutdown();
            }
            // jedis's pool does the same and keeps listening to the Sentinels for a switch.
            try (JedisSentinelPool pool = new JedisSentinelPool("m", Set.of(s1.address(), s2.address(), s3.address()))) {
                assertEquals(mp, pool.getCurrentHostMaster().getPort());
                try (Jedis j = pool.getResource()) {
                    j.sendCommand(() -> "INSERT".getBytes(), "INTO", "t", "VALUES", "(2, 'jedis')");
                    assertEquals(List.of("1,lettuce", "2,jedis"), strings(j.sendCommand(() -> "SELECT".getBytes(),
                            "*", "FROM", "t", "ORDER", "BY", "id")));
                }
            }

            // Killed: each Sentinel sees it down, and together they reach the quorum.
            master.kill9();
            SentinelView.await("subjectively and objectively down", Duration.ofSeconds(30),
                    m -> m.get("flags").contains("s_down"), s1, s2, s3);
            // ODOWN follows once the Sentinels have asked each other (is-master-down-by-addr).
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!(s1.log().contains("+odown master m") || s2.log().contains("+odown master m")
                    || s3.log().contains("+odown master m"))) {
                assertTrue(System.nanoTime() < deadline, "no Sentinel reached ODOWN; s1's log:\n" + s1.log());
                Thread.sleep(100); // another process's timers: nothing here to wait on
            }
            // Back on the same port (its data is gone: no persistence configured here), monitored again.
            master.start();
            SentinelView.await("master up again", Duration.ofSeconds(30),
                    m -> m.get("flags").equals("master") && m.get("role-reported").equals("master"), s1, s2, s3);
            assertEquals(master.address(), SentinelView.masterAddress(s2));
        }
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }

    private static List<String> strings(Object reply) {
        List<?> rows = (List<?>) reply;
        return rows.stream().map(r -> new String((byte[]) r)).toList();
    }
}
