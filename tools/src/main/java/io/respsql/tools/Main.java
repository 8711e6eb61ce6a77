package io.respsql.tools;

import java.io.PrintStream;

/** {@code import} or {@code export}: the entry point of scripts/respsql-import and scripts/respsql-export. */
public final class Main {
    private Main() {
    }

    static final String COMMON = """
              -h, --host HOST        server host (default 127.0.0.1)
              -p, --port PORT        server port (default 6379)
              -a, --password PASS    AUTH with this password (--user NAME for an ACL user)
              --delimiter C          field delimiter, one ASCII character or \\t (default ,)
              --tsv                  tab-delimited (same as --delimiter \\t; quoting as in CSV)
              --no-header            no header line (default: the first line names the columns)
              --null STRING          the text of a NULL, unquoted (default: an empty unquoted field;
                                     a quoted field is never NULL, so "" is the empty string)
              --progress MODE        auto (a bar on a terminal, else a line every few seconds),
                                     bar, plain or none (default auto; progress goes to stderr)
              --progress-interval S  seconds between plain progress lines (default 5)
            """;

    static final String IMPORT_HELP = """
            usage: respsql-import [options] TABLE [FILE|-]
            Loads CSV (RFC 4180: quoted fields may hold delimiters, "" and line breaks) into an existing
            table. Every line is checked first (field count, each value typed by its column, NOT NULL):
            a bad line stops with its line, column and reason and nothing is loaded. Then rows go as
            pipelined multi-row INSERTs; if the server refuses one (e.g. a duplicate key), the load
            stops and the lines that went in are listed. Exit status 0 when every row loaded, else 1.
            """ + COMMON + """
              --columns a,b,c        the file's columns, in order (default: the header, else the
                                     table's columns in order); the rest take their DEFAULT or NULL
              --batch N              rows per INSERT statement (default 1000; a statement also
                                     ends at 1 MB)
              --atomic               the whole file in one MULTI/EXEC: every row or none, even when the
                                     server refuses a row (the server holds the file's statements
                                     until EXEC and runs them in one go)
              --max-rate N           send at most N rows per second
            """;

    static final String EXPORT_HELP = """
            usage: respsql-export [options] (TABLE | --query "SELECT ...") [-o FILE]
            Writes a table or a query's result as CSV, streaming, with a header line of the column
            names. NULL is the --null string unquoted; text equal to it (the empty string by default)
            is quoted, so respsql-import reads the file back to the same values. BOOLEAN is true/false.
            """ + COMMON + """
              -q, --query SQL        export this query's result instead of a table
              -o, --output FILE      write to FILE (replaced whole when the export succeeds) instead of stdout
            """;

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs {@code import ...} or {@code export ...} on these streams; the exit status. */
    public static int run(String[] args, java.io.InputStream stdin, java.io.OutputStream stdout, PrintStream err) throws Exception {
        if (args.length == 0 || !(args[0].equals("import") || args[0].equals("export"))) {
            err.println("usage: Main import|export [options] ...");
            return 2;
        }
        boolean export = args[0].equals("export");
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        for (String a : rest) {
            if (a.equals("--help")) {
                stdout.write((export ? EXPORT_HELP : IMPORT_HELP).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                stdout.flush();
                return 0;
            }
        }
        Options o;
        try {
            o = Options.parse(rest, export);
        } catch (Options.UsageException e) {
            err.println((export ? Exporter.NAME : Importer.NAME) + ": " + e.getMessage() + " (--help lists the options)");
            return 2;
        }
        // the launcher knows whether stderr is a terminal (the JVM does not)
        boolean terminal = "1".equals(System.getProperty("respsql.tty"));
        try {
            return export ? Exporter.run(o, stdout, err, terminal) : Importer.run(o, stdin, err, terminal);
        } catch (java.net.ConnectException e) {
            err.println((export ? Exporter.NAME : Importer.NAME) + ": cannot connect to " + o.host + ":" + o.port + ": " + e.getMessage());
            return 1;
        }
    }
}
