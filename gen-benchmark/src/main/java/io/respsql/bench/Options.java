package io.respsql.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Command line of gen-benchmark. The 2010 short flags keep their meaning; everything new has a
 * long {@code --name} and, like every option, must come before {@code -Q}, whose following words
 * are the request.
 */
public final class Options {

    /** Largest number a 12-digit key token can hold. */
    public static final long MAX_KEY = 999_999_999_999L;

    public enum KeyMode { NONE, SEQUENTIAL, RANDOM }

    public enum Transport { AUTO, EPOLL, NIO }

    public String host = "127.0.0.1";
    public int port = 6379;
    public int clients = 50;
    public long requests = 10_000;
    public KeyMode keyMode = KeyMode.NONE;
    /** Counter step for {@code -s} / {@code -i}. */
    public long step = 1;
    /** Exclusive bound for {@code -r}. */
    public long randomRange;
    /** Moduli from {@code -m M[,M2,...]}: token 2 uses the first, token 3 the second, ... */
    public long[] moduli = new long[0];
    public boolean quiet;
    public boolean loop;
    public ReplyType expect;
    public List<String> words = new ArrayList<>();

    public String jsonFile;
    public boolean progress = true;
    public double progressIntervalSeconds = 5;
    public double loopSeconds;
    public long loopRounds;
    public int threads = 1;
    public Transport transport = Transport.AUTO;
    public Long seed;
    /** PINGs sent before the clock starts (at least one per connection). */
    public long warmup = 20_000;
    public boolean help;

    /** Thrown for a command line that cannot be run; the message says why. */
    public static final class UsageException extends Exception {
        public UsageException(String message) {
            super(message);
        }
    }

    public static Options parse(String... args) throws UsageException {
        Options o = new Options();
        boolean sawS = false;
        boolean sawI = false;
        boolean sawQ = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h" -> o.host = value(args, ++i, a);
                case "-p" -> o.port = (int) number(args, ++i, a, 1, 65535);
                case "-c" -> o.clients = (int) number(args, ++i, a, 1, 100_000);
                case "-n" -> o.requests = number(args, ++i, a, 1, Long.MAX_VALUE / 2);
                case "-s" -> sawS = true;
                case "-i" -> {
                    sawI = true;
                    o.step = number(args, ++i, a, 1, MAX_KEY);
                }
                case "-r" -> {
                    o.keyMode = KeyMode.RANDOM;
                    o.randomRange = number(args, ++i, a, 1, MAX_KEY + 1);
                }
                case "-m" -> o.moduli = moduli(value(args, ++i, a));
                case "-q" -> o.quiet = true;
                case "-l" -> o.loop = true;
                case "-A" -> o.expect = ReplyType.parse(value(args, ++i, a));
                case "-Q" -> {
                    sawQ = true;
                    o.words = new ArrayList<>(Arrays.asList(args).subList(i + 1, args.length));
                    i = args.length;
                }
                case "--json" -> o.jsonFile = value(args, ++i, a);
                case "--no-progress" -> o.progress = false;
                case "--progress-interval" -> o.progressIntervalSeconds = decimal(args, ++i, a);
                case "--seconds" -> o.loopSeconds = decimal(args, ++i, a);
                case "--loops" -> o.loopRounds = number(args, ++i, a, 1, Long.MAX_VALUE);
                case "--threads" -> o.threads = (int) number(args, ++i, a, 1, 256);
                case "--transport" -> o.transport = transport(value(args, ++i, a));
                case "--warmup" -> o.warmup = number(args, ++i, a, 0, 100_000_000);
                case "--seed" -> o.seed = number(args, ++i, a, Long.MIN_VALUE, Long.MAX_VALUE);
                case "--help", "-?" -> o.help = true;
                default -> throw new UsageException("unknown option '" + a + "'"
                        + (a.startsWith("-") ? "" : " (request words go after -Q, which comes last)"));
            }
        }
        if (o.help) {
            return o;
        }
        if (o.keyMode == KeyMode.RANDOM && (sawS || sawI)) {
            throw new UsageException("-r cannot be combined with -s or -i");
        }
        if (sawS || sawI) {
            o.keyMode = KeyMode.SEQUENTIAL;
        }
        if (o.moduli.length > 0 && o.keyMode == KeyMode.NONE) {
            throw new UsageException("-m needs a key source: -s, -i or -r");
        }
        if (!sawQ || o.words.isEmpty()) {
            throw new UsageException("no request: give -Q word word ... (last)");
        }
        if (o.expect == null) {
            throw new UsageException("no reply type: give -A OK|INT|LINE|MULTI");
        }
        if (o.loop && o.loopSeconds <= 0 && o.loopRounds <= 0) {
            throw new UsageException("-l repeats the run and needs a bound: --loops K or --seconds S");
        }
        if (!o.loop && (o.loopSeconds > 0 || o.loopRounds > 0)) {
            throw new UsageException("--loops and --seconds bound -l; give -l too");
        }
        if (o.keyMode == KeyMode.SEQUENTIAL && !o.loop) {
            long last = lastSequential(o.requests, o.step);
            if (last > MAX_KEY) {
                throw new UsageException("-n " + o.requests + " with step " + o.step
                        + " would need key " + last + ", more than 12 digits");
            }
        }
        return o;
    }

    /** The key of the last request of a sequential run, or Long.MAX_VALUE on overflow. */
    static long lastSequential(long requests, long step) {
        try {
            return Math.addExact(1, Math.multiplyExact(requests - 1, step));
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private static String value(String[] args, int i, String flag) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("option " + flag + " needs a value");
        }
        return args[i];
    }

    private static long number(String[] args, int i, String flag, long min, long max)
            throws UsageException {
        String v = value(args, i, flag);
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new UsageException("option " + flag + " needs a whole number, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new UsageException("option " + flag + " must be between " + min + " and " + max
                    + ", got " + n);
        }
        return n;
    }

    private static double decimal(String[] args, int i, String flag) throws UsageException {
        String v = value(args, i, flag);
        double d;
        try {
            d = Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new UsageException("option " + flag + " needs a number, got '" + v + "'");
        }
        if (!(d > 0) || Double.isInfinite(d)) {
            throw new UsageException("option " + flag + " must be positive, got " + v);
        }
        return d;
    }

    private static long[] moduli(String v) throws UsageException {
        String[] parts = v.split(",", -1);
        long[] m = new long[parts.length];
        for (int k = 0; k < parts.length; k++) {
            try {
                m[k] = Long.parseLong(parts[k].trim());
            } catch (NumberFormatException e) {
                throw new UsageException("-m needs numbers separated by commas, got '" + v + "'");
            }
            if (m[k] < 1) {
                throw new UsageException("-m moduli must be at least 1, got '" + v + "'");
            }
        }
        return m;
    }

    private static Transport transport(String v) throws UsageException {
        try {
            return Transport.valueOf(v.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--transport must be auto, epoll or nio, got '" + v + "'");
        }
    }

    public static String usage() {
        return """
            Usage: gen-benchmark [-h host] [-p port] [-c clients] [-n requests]
                                 [-s | -i step | -r keyspace] [-m modulo[,modulo...]] [-q]
                                 [-l --loops K | -l --seconds S] [long options]
                                 -A OK|INT|LINE|MULTI|ANY -Q word word ...
                   gen-benchmark compare RESULT_DIR [--reference FILE] [--out DIR]
                   gen-benchmark soak [--connections N] [--duration S] ... (soak --help)

              -h host       server host (default 127.0.0.1)
              -p port       server port (default 6379)
              -c clients    parallel connections, one request in flight each (default 50)
              -n requests   requests to send in all, exactly (default 10000)
              -s            sequential keys: request k (k = 1..n) gets number k
              -i step       sequential keys with this step: 1, 1+step, 1+2*step, ...
              -r keyspace   random keys: a number in 0..keyspace-1 per request
              -m modulo     the second and later key tokens of a request get number % modulo;
                            with a list, token 2 uses the first modulo, token 3 the second, ...
                            (the last one repeats)
              -q            quiet: print only the requests per second
              -l            repeat the whole run (each round exactly -n requests, keys go on
                            counting); needs --loops K or --seconds S (checked between rounds)
              -A type       reply expected: OK (status), INT (integer), LINE (bulk string),
                            MULTI (array), ANY (any non-error); anything else is counted as an
                            error and makes the exit status 1
              -Q words...   the request, one RESP argument per word; must come last

            Key tokens: in each request every 12-digit run that starts with 0000 and directly
            follows '(' ',' '_' or '=' is replaced by the request's number, zero-padded to 12
            digits (e.g. "(000000000001,000000000001,4)" with -s -m 100 gives (n,n%100,4)).

              --json FILE           write every figure and the full latency histogram as JSON
              --no-progress         no progress line on stderr
              --progress-interval S seconds between progress lines (default 5)
              --loops K             with -l: stop after K rounds
              --seconds S           with -l: start no new round after S seconds
              --threads T           event-loop threads (default 1)
              --transport T         auto (default: epoll where available), epoll or nio
              --seed N              seed for -r (default: time based)
              --warmup N            PINGs sent before the clock starts, at least one per
                                    connection (default 20000); they check every connection
                                    and warm the client up, and are not counted or timed
              --help                this text

            Exit status: 0 all replies as expected, 1 error replies or wrong reply types or a
            failed connection, 2 bad command line.
            """;
    }
}
