package io.respsql.bench.soak;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Command line of {@code gen-benchmark soak}. */
final class SoakOptions {
    String host = "127.0.0.1";
    int port = 6379;
    int connections = 200;
    double durationSeconds = 300;
    long maxRequests = 50_000_000;
    double intervalSeconds = 10;
    /** Weights of INSERT, SELECT, UPDATE, DELETE. */
    int[] mix = {30, 40, 20, 10};
    int seedRows = 500;
    int groups = 10;
    long serverPid = -1;
    long seed = System.nanoTime();
    int threads = 1;
    String jsonFile;
    boolean help;

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static String usage() {
        return """
            Usage: gen-benchmark soak [options]
            Runs INSERT, point SELECT, fk-range UPDATE and DELETE from many connections, one request in
            flight each, checking every reply against an exact model of the table; at the end the whole
            table is compared with the model. Exits 1 on any error reply, wrong reply or mismatch.
              --host H            server address, loopback only (default 127.0.0.1)
              --port P            server port (default 6379)
              --connections N     connections (default 200)
              --duration S        seconds of load, after seeding (default 300)
              --max-requests N    stop after this many requests even before --duration (default 50000000)
              --interval S        seconds between progress lines (default 10)
              --mix I,S,U,D       weights of INSERT, SELECT, UPDATE, DELETE (default 30,40,20,10)
              --seed-rows N       rows each connection inserts before the clock starts (default 500)
              --groups N          fk values each connection owns (default 10)
              --server-pid PID    report the server's VmRSS from /proc/PID/status
              --seed N            random seed (default: from the clock; printed)
              --threads N         client event-loop threads (default 1)
              --json FILE         also write the summary, per-statement figures and snapshots as JSON
            The table 'soak' is dropped and recreated.
            """;
    }

    static SoakOptions parse(String... args) throws UsageException {
        SoakOptions o = new SoakOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                o.help = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new UsageException("unknown option or missing value: " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--host" -> o.host = v;
                case "--port" -> o.port = (int) number(a, v, 1, 65535);
                case "--connections" -> o.connections = (int) number(a, v, 1, 100_000);
                case "--duration" -> o.durationSeconds = decimal(a, v);
                case "--max-requests" -> o.maxRequests = number(a, v, 1, Long.MAX_VALUE);
                case "--interval" -> o.intervalSeconds = decimal(a, v);
                case "--mix" -> o.mix = mix(v);
                case "--seed-rows" -> o.seedRows = (int) number(a, v, 0, 10_000_000);
                case "--groups" -> o.groups = (int) number(a, v, 1, 1_000_000);
                case "--server-pid" -> o.serverPid = number(a, v, 1, Long.MAX_VALUE);
                case "--seed" -> o.seed = number(a, v, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--threads" -> o.threads = (int) number(a, v, 1, 64);
                case "--json" -> o.jsonFile = v;
                default -> throw new UsageException("unknown option " + a);
            }
        }
        if (!o.help) {
            checkLoopback(o.host);
            if ((long) o.connections * o.span() + 1 > Integer.MAX_VALUE || o.span() < o.groups) {
                throw new UsageException("too many connections for the INT id space");
            }
        }
        return o;
    }

    /** Ids each connection owns: as many as fit in an INT across all connections, at most 10M. */
    int span() {
        return (int) Math.min(10_000_000L, (Integer.MAX_VALUE - 1L) / connections);
    }

    /** Cumulative weights for {@link SoakModel#next}. */
    int[] cumulativeMix() {
        return new int[] {mix[0], mix[0] + mix[1], mix[0] + mix[1] + mix[2], mix[0] + mix[1] + mix[2] + mix[3]};
    }

    private static void checkLoopback(String host) throws UsageException {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (!a.isLoopbackAddress()) {
                    throw new UsageException("refusing --host " + host + ": the soak writes and drops a table,"
                        + " so it only runs against a loopback address");
                }
            }
        } catch (UnknownHostException e) {
            throw new UsageException("unknown host " + host);
        }
    }

    private static int[] mix(String v) throws UsageException {
        String[] parts = v.split(",");
        if (parts.length != 4) {
            throw new UsageException("--mix needs four weights: INSERT,SELECT,UPDATE,DELETE");
        }
        int[] m = new int[4];
        int sum = 0;
        for (int i = 0; i < 4; i++) {
            m[i] = (int) number("--mix", parts[i].trim(), 0, 1_000_000);
            sum += m[i];
        }
        if (sum == 0) {
            throw new UsageException("--mix weights are all 0");
        }
        return m;
    }

    private static long number(String opt, String v, long min, long max) throws UsageException {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException(opt + " needs a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException(opt + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    private static double decimal(String opt, String v) throws UsageException {
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException(opt + " needs a number of seconds, got '" + v + "'");
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new UsageException(opt + " must be a positive number of seconds, got '" + v + "'");
        }
        return d;
    }
}
