package io.respsql.tools;

import java.util.ArrayList;
import java.util.List;

/** The command lines of respsql-import and respsql-export (one parser: they share most options). */
final class Options {
    String host = "127.0.0.1";
    int port = 6379;
    String user;
    String password;
    List<String> columns;
    boolean header = true;
    byte delimiter = ',';
    String nullString = "";
    int batchRows = 1000;
    boolean atomic;
    /** auto (bar on a terminal, else plain lines), bar, plain or none. */
    String progress = "auto";
    double progressInterval = 5;
    long maxRate;
    String query;
    String output;
    final List<String> positional = new ArrayList<>();

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    static Options parse(String[] args, boolean export) throws UsageException {
        Options o = new Options();
        Cursor c = new Cursor(args);
        while (c.i < args.length) {
            String a = args[c.i++];
            c.inline = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                c.inline = a.substring(eq + 1);
                a = a.substring(0, eq);
            }
            switch (a) {
                case "-h", "--host" -> o.host = c.value(a);
                case "-p", "--port" -> o.port = integer(c.value(a), a);
                case "-a", "--password" -> o.password = c.value(a);
                case "--user" -> o.user = c.value(a);
                case "--header" -> o.header = true;
                case "--no-header" -> o.header = false;
                case "--delimiter", "-d" -> o.delimiter = delimiter(c.value(a));
                case "--tsv" -> o.delimiter = '\t';
                case "--null" -> o.nullString = c.value(a);
                case "--columns" -> {
                    if (export) {
                        throw new UsageException("--columns is an import option (export: --query \"SELECT a, b FROM t\")");
                    }
                    o.columns = List.of(c.value(a).split(",", -1)).stream().map(String::trim).toList();
                }
                case "--batch" -> o.batchRows = Math.max(1, integer(c.value(a), a));
                case "--atomic" -> o.atomic = true;
                case "--progress" -> {
                    o.progress = c.value(a);
                    if (!List.of("auto", "bar", "plain", "none").contains(o.progress)) {
                        throw new UsageException("--progress takes auto, bar, plain or none");
                    }
                }
                case "--progress-interval" -> o.progressInterval = seconds(c.value(a), a);
                case "--max-rate" -> o.maxRate = integer(c.value(a), a);
                case "--query", "-q" -> o.query = c.value(a);
                case "--output", "-o" -> o.output = c.value(a);
                default -> {
                    if (a.startsWith("-") && !a.equals("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    o.positional.add(a);
                }
            }
        }
        return o;
    }

    /** Where the parse is; a value is the rest of {@code --name=value} or the next word. */
    private static final class Cursor {
        final String[] args;
        int i;
        String inline;

        Cursor(String[] args) {
            this.args = args;
        }

        String value(String name) throws UsageException {
            if (inline != null) {
                return inline;
            }
            if (i >= args.length) {
                throw new UsageException(name + " needs a value");
            }
            return args[i++];
        }
    }

    private static int integer(String s, String name) throws UsageException {
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " takes a number, not '" + s + "'");
        }
    }

    private static double seconds(String s, String name) throws UsageException {
        try {
            double d = Double.parseDouble(s);
            if (d > 0) {
                return d;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException(name + " takes a number of seconds above 0, not '" + s + "'");
    }

    private static byte delimiter(String s) throws UsageException {
        String d = switch (s) {
            case "\\t", "tab", "TAB" -> "\t";
            default -> s;
        };
        if (d.length() != 1 || d.charAt(0) > 127 || d.charAt(0) == '"' || d.charAt(0) == '\r' || d.charAt(0) == '\n') {
            throw new UsageException("--delimiter takes one ASCII character other than a quote or newline (or \\t), not '" + s + "'");
        }
        return (byte) d.charAt(0);
    }
}
