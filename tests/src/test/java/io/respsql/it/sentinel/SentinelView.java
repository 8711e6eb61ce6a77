package io.respsql.it.sentinel;

import io.respsql.it.RespConnection;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/** What a Sentinel says about master {@code m}, read over RESP. */
final class SentinelView {
    private SentinelView() {
    }

    /** {@code SENTINEL MASTER m} as a map (flags, role-reported, num-other-sentinels, num-slaves, ...). */
    static Map<String, String> master(LocalProcess sentinel) throws IOException {
        try (RespConnection c = sentinel.raw()) {
            return flatMap(c.call("SENTINEL", "MASTER", "m"));
        }
    }

    /** {@code SENTINEL GET-MASTER-ADDR-BY-NAME m} as {@code host:port}. */
    static String masterAddress(LocalProcess sentinel) throws IOException {
        try (RespConnection c = sentinel.raw()) {
            String[] l = c.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", "m").split("\r\n");
            return l[2] + ":" + l[4];
        }
    }

    /** A flat RESP array of bulk strings (key, value, ...) as a map; values never hold CRLF here. */
    static Map<String, String> flatMap(String reply) {
        if (reply.startsWith("-")) {
            throw new AssertionError("sentinel replied " + reply.trim());
        }
        String[] l = reply.split("\r\n", -1);
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 1; i + 3 < l.length; i += 4) {
            m.put(l[i + 1], l[i + 3]);
        }
        return m;
    }

    /**
     * Polls every Sentinel's view of {@code m} until {@code condition} holds for all of them. Sentinel
     * is another process with timers of its own: there is no event in this JVM to wait on.
     */
    static void await(String what, Duration timeout, Predicate<Map<String, String>> condition, LocalProcess... sentinels)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, String> last = null;
        while (true) {
            boolean all = true;
            for (LocalProcess s : sentinels) {
                last = master(s);
                if (!condition.test(last)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what + "; last view " + last);
            }
            Thread.sleep(100);
        }
    }
}
