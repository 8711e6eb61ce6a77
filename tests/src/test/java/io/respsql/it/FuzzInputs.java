package io.respsql.it;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates fuzz inputs from a seed. Two kinds:
 *
 * <ul>
 *   <li>framed: a well-formed RESP array of bulk strings whose words are SQL token soups,
 *       near-valid statements from the grammar, numbers at type limits, huge IN lists, long
 *       identifiers and strings, valid and invalid UTF-8, connection commands. Many are sent
 *       pipelined on one connection; each must get exactly one well-formed reply.</li>
 *   <li>raw: arbitrary bytes (random, truncated or corrupted frames, malformed headers, lengths
 *       at and past the limits, inline commands with unbalanced quotes). Each goes on its own
 *       connection, since a broken frame leaves the decoder in any state.</li>
 * </ul>
 *
 * <p>Identifiers come from a fixed pool of fuzz table and column names, random words and long
 * random names that always start with {@code fz}, so no input can name a table outside that
 * space (the test's control table is named outside it).
 */
final class FuzzInputs {
    static final String[] TABLES = {"fz0", "fz1", "fz2", "fzt"};
    static final String[] COLUMNS = {"id", "a", "b", "c", "d"};
    /** DDL recreating the fuzz tables, so every batch starts from a small known schema. */
    static final String[][] RESET = {
        {"DROP", "TABLE", "IF", "EXISTS", "fz0"},
        {"DROP", "TABLE", "IF", "EXISTS", "fz1"},
        {"DROP", "TABLE", "IF", "EXISTS", "fz2"},
        {"DROP", "TABLE", "IF", "EXISTS", "fzt"},
        {"DROP", "TABLE", "IF", "EXISTS", "fzn"},
        {"DROP", "TABLE", "IF", "EXISTS", "fzm"},
        {"CREATE", "TABLE", "fz0", "(id int primary key, a int, b bigint, c float, d text)"},
        {"CREATE", "TABLE", "fz1", "(id int primary key, a int, b bigint, c float, d text)"},
        {"CREATE", "TABLE", "fz2", "(id bigint primary key, a int, b bigint, c float, d text)"},
        {"CREATE", "TABLE", "fzt", "(d text primary key, id int, a int, b bigint, c float)"},
        {"CREATE", "INDEX", "fz0:a:index", "ON", "fz0", "(a)"},
        {"CREATE", "INDEX", "fz1:d", "ON", "fz1", "(d)"},
        {"CREATE", "INDEX", "fz2:c", "ON", "fz2", "(c)"},
        {"INSERT", "INTO", "fz0", "VALUES", "(1,1,1,1.5,one),(2,2,2,2.5,'two'),(3,1,3,-3,'x y')"},
        {"INSERT", "INTO", "fz1", "VALUES", "(1,1,10,0.5,one),(2,1,20,0,two),(3,3,30,1e10,three)"},
        {"INSERT", "INTO", "fz2", "VALUES", "(1,1,9223372036854775807,1,a),(2,2,-9223372036854775808,2,b)"},
        {"INSERT", "INTO", "fzt", "VALUES", "('k1',1,1,1,1),('k2',2,2,2,2)"},
    };

    private static final String[] VERBS = {
        "SELECT", "SCANSELECT", "INSERT", "UPDATE", "DELETE", "CREATE", "DROP", "DESC", "DESCRIBE",
        "DUMP", "SHOW", "EXPLAIN", "SQL",
    };
    private static final String[] KEYWORDS = {
        "SELECT", "SCANSELECT", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "FROM", "WHERE",
        "CREATE", "TABLE", "INDEX", "ON", "DROP", "IF", "EXISTS", "NOT", "NULL", "PRIMARY", "KEY", "DESC",
        "ASC", "DESCRIBE", "DUMP", "SHOW", "TABLES", "EXPLAIN", "AND", "OR", "IN", "BETWEEN", "ORDER",
        "BY", "LIMIT", "OFFSET", "JOIN", "COUNT", "SUM", "MIN", "MAX", "AVG", "RETURN", "SIZE", "INT",
        "BIGINT", "FLOAT", "TEXT", "VARCHAR", "GROUP", "HAVING", "AS", "DISTINCT", "UNION", "NULL",
    };
    private static final String[] SYMBOLS = {
        "(", ")", ",", ".", "=", "<", ">", "<=", ">=", "!=", "<>", "+", "-", "*", "/", "%", ";",
        "'", "\"", "''", "(*)", "!", "?", "@", "$", "#", "::", "\\", "`",
    };
    /** Numbers at and past the limits of INT, BIGINT and FLOAT, and texts that only look numeric. */
    static final String[] EDGE_NUMBERS = {
        "0", "-0", "1", "-1", "2147483647", "2147483648", "-2147483648", "-2147483649",
        "4294967295", "4294967296", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "1e308", "1.7976931348623157e308", "1e309", "-1e309", "4.9e-324", "1e-400", "-0.0", "0.0",
        "NaN", "nan", "Infinity", "-Infinity", "inf", "0x10", "0x7fffffff", "0b101", "1_000",
        "000000000001", "00", "1.", ".5", "5.", "1e", "1e+", "1e-5", "1.5e3", "--1", "+-1", "1..2",
        "99999999999999999999999999999999999999999999999999", "-99999999999999999999999999999999",
        "0.1e999999999", "1e-999999999", "123456789012345678901234567890.5",
    };
    /** Commands the fuzz server disables with rename-command (those it has); inputs still name them. */
    static final String[] ADMIN_COMMANDS = {
        "flushall", "flushdb", "config", "client", "shutdown", "debug", "save", "bgsave", "bgrewriteaof",
        "monitor", "replicaof", "slaveof", "acl", "module", "failover",
    };
    private static final String[] CONNECTION_COMMANDS = {
        "PING", "ECHO", "HELLO", "SELECT", "INFO", "COMMAND", "DBSIZE", "TIME", "AUTH", "SLOWLOG",
        "FLUSHALL", "FLUSHDB", "CONFIG", "CLIENT", "SHUTDOWN", "DEBUG", "SAVE", "BGSAVE", "MONITOR",
        "MULTI", "EXEC", "DISCARD", "WATCH", "UNWATCH",
    };

    private final SplittableRandom r;

    FuzzInputs(long seed) {
        this.r = new SplittableRandom(seed);
    }

    // ---- framed inputs ---------------------------------------------------------------------

    /** One framed input: the words of one command. */
    List<byte[]> framed() {
        int k = r.nextInt(1000);
        if (k < 300) {
            return split(nearValid());
        } else if (k < 520) {
            return soup();
        } else if (k < 680) {
            return split(numbers());
        } else if (k < 760) {
            return connectionCommand();
        } else if (k < 840) {
            return utf8();
        } else if (k < 960) {
            return mutated(nearValid());
        } else if (k < 999) {
            return split(longNames());
        } else {
            return split(hugeIn());
        }
    }

    private String table() {
        return TABLES[r.nextInt(TABLES.length)];
    }

    private String column() {
        return COLUMNS[r.nextInt(COLUMNS.length)];
    }

    private String value() {
        return switch (r.nextInt(8)) {
            case 0 -> EDGE_NUMBERS[r.nextInt(EDGE_NUMBERS.length)];
            case 1 -> "'" + word() + "'";
            case 2 -> word();
            case 3 -> String.valueOf(r.nextDouble() * 100 - 50);
            default -> String.valueOf(r.nextInt(-3, 40));
        };
    }

    private String word() {
        String[] words = {"one", "two", "x y", "it''s", "", "a,b", "NULL", "k1", "zz", "é", "日本", "🙂"};
        return words[r.nextInt(words.length)];
    }

    private String operand() {
        int k = r.nextInt(6);
        if (k < 3) {
            return column();
        } else if (k == 3) {
            return column() + " " + pick("+", "-", "*", "/", "%") + " " + value();
        } else if (k == 4) {
            return table() + "." + column();
        }
        return value();
    }

    /** A value of the column's type, mostly, so that statements get past the type checks. */
    private String typed(String column) {
        if (r.nextInt(5) == 0) {
            return value();
        }
        return switch (column) {
            case "d" -> "'" + word() + "'";
            case "c" -> String.valueOf(r.nextInt(-5, 40) / 2.0);
            default -> String.valueOf(r.nextInt(-3, 40));
        };
    }

    private String condition(int depth) {
        int k = r.nextInt(depth > 3 ? 7 : 11);
        String col = column();
        return switch (k) {
            case 5, 6 -> col + " " + pick("=", "!=", "<", "<=", ">", ">=") + " " + typed(col);
            case 7 -> col + " BETWEEN " + typed(col) + " AND " + typed(col);
            case 0 -> operand() + " BETWEEN " + value() + " AND " + value();
            case 1 -> operand() + (r.nextBoolean() ? " NOT IN (" : " IN (") + valueList(r.nextInt(0, 8)) + ")";
            case 2, 3, 4 -> operand() + " " + pick("=", "!=", "<>", "<", "<=", ">", ">=") + " " + operand();
            case 8 -> "NOT " + condition(depth + 1);
            case 9 -> "(" + condition(depth + 1) + ")";
            default -> condition(depth + 1) + pick(" AND ", " OR ") + condition(depth + 1);
        };
    }

    private String valueList(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? "," : "").append(value());
        }
        return sb.toString();
    }

    private String selectList() {
        return switch (r.nextInt(7)) {
            case 0 -> "*";
            case 1 -> "COUNT(*)";
            case 2 -> pick("SUM", "MIN", "MAX", "AVG", "COUNT") + "(" + operand() + ")";
            case 3 -> column() + "," + column();
            case 4 -> operand() + ", " + operand();
            case 5 -> pick("SUM", "MIN", "MAX", "AVG") + "(" + column() + "), COUNT(*)";
            default -> column();
        };
    }

    /** A statement the grammar accepts or nearly accepts, over the fuzz tables. */
    String nearValid() {
        StringBuilder sb = new StringBuilder();
        switch (r.nextInt(12)) {
            case 0, 1, 2 -> {
                sb.append(r.nextInt(5) == 0 ? "SCANSELECT " : "SELECT ").append(selectList()).append(" FROM ").append(table());
                if (r.nextInt(6) == 0) {
                    sb.append(", ").append(table());
                    if (r.nextBoolean()) {
                        sb.append(", ").append(table());
                    }
                }
                if (r.nextInt(5) > 0) {
                    sb.append(" WHERE ").append(condition(0));
                }
                if (r.nextInt(3) == 0) {
                    sb.append(" ORDER BY ").append(column()).append(pick("", " ASC", " DESC"));
                    if (r.nextBoolean()) {
                        sb.append(", ").append(operand()).append(pick("", " ASC", " DESC"));
                    }
                }
                if (r.nextInt(3) == 0) {
                    sb.append(" LIMIT ").append(value());
                    if (r.nextBoolean()) {
                        sb.append(" OFFSET ").append(value());
                    }
                }
            }
            case 3, 4 -> {
                sb.append("INSERT INTO ").append(table());
                if (r.nextInt(4) == 0) {
                    sb.append(" (").append(column()).append(',').append(column()).append(')');
                }
                sb.append(" VALUES ");
                int rows = r.nextInt(1, 4);
                for (int i = 0; i < rows; i++) {
                    sb.append(i > 0 ? "," : "").append('(').append(r.nextInt(-2, 40));
                    int cols = r.nextInt(8) == 0 ? r.nextInt(0, 8) : 4;
                    for (int c = 0; c < cols; c++) {
                        sb.append(',').append(r.nextBoolean() ? value() : typed(COLUMNS[1 + c % 4]));
                    }
                    sb.append(')');
                }
                if (r.nextInt(6) == 0) {
                    sb.append(" RETURN SIZE");
                }
            }
            case 5, 6 -> {
                String col = column();
                sb.append("UPDATE ").append(table()).append(" SET ").append(col).append('=')
                    .append(r.nextBoolean() ? typed(col) : r.nextBoolean() ? col + " + " + typed(col) : operand());
                if (r.nextBoolean()) {
                    sb.append(", ").append(column()).append(" = ").append(operand());
                }
                if (r.nextInt(6) > 0) {
                    sb.append(" WHERE ").append(condition(0));
                }
            }
            case 7 -> {
                sb.append("DELETE FROM ").append(table());
                // Mostly narrow, so the tables keep rows for the other statements.
                sb.append(" WHERE ").append(r.nextInt(4) == 0 ? condition(0) : "id = " + value());
            }
            case 8 -> sb.append(pick("CREATE INDEX fz", "CREATE INDEX ")).append(r.nextInt(4)).append(":x ON ")
                .append(table()).append(" (").append(column()).append(')');
            case 9 -> sb.append(pick("CREATE TABLE ", "CREATE TABLE IF NOT EXISTS ")).append(pick("fzn", "fz0", "fzm"))
                .append(" (").append(column()).append(' ').append(pick("int", "bigint", "float", "text", "varchar(12)", "blob"))
                .append(pick(" primary key", "", " not null", " primary key primary key")).append(", ")
                .append(column()).append(' ').append(pick("int", "text", "float")).append(')');
            case 10 -> sb.append(pick("DESC ", "DUMP ", "DROP INDEX fz0:a:index", "SHOW TABLES", "DROP TABLE fzn",
                "DROP TABLE IF EXISTS fzm", "EXPLAIN SELECT * FROM ")).append(table());
            default -> sb.append("EXPLAIN ").append(pick("UPDATE ", "DELETE FROM ", "SELECT * FROM "))
                .append(table()).append(" WHERE ").append(condition(0));
        }
        return sb.toString();
    }

    /**
     * A table and a WHERE condition for a differential check: the condition as written (which the
     * planner may serve by a key or index) against its double negation (which it cannot).
     */
    String[] tableAndCondition() {
        return new String[] {table(), condition(0)};
    }

    /** Words picked from the lexicon in any order: keywords, names, symbols, numbers, quotes. */
    private List<byte[]> soup() {
        List<String> words = new ArrayList<>();
        words.add(r.nextInt(4) == 0 ? KEYWORDS[r.nextInt(KEYWORDS.length)] : VERBS[r.nextInt(VERBS.length)]);
        int n = r.nextInt(1, 40);
        for (int i = 0; i < n; i++) {
            words.add(switch (r.nextInt(6)) {
                case 0, 1 -> KEYWORDS[r.nextInt(KEYWORDS.length)];
                case 2 -> SYMBOLS[r.nextInt(SYMBOLS.length)];
                case 3 -> r.nextBoolean() ? table() : column();
                case 4 -> value();
                default -> pick("(", ")", ",", "=", "*");
            });
        }
        if (r.nextInt(3) == 0) {
            return split(String.join(r.nextBoolean() ? " " : "", words));
        }
        List<byte[]> out = new ArrayList<>();
        for (String w : words) {
            out.add(utf8(w));
        }
        return out;
    }

    /** Statements whose values sit at and past the numeric limits of each column type. */
    private String numbers() {
        String v = EDGE_NUMBERS[r.nextInt(EDGE_NUMBERS.length)];
        String w = EDGE_NUMBERS[r.nextInt(EDGE_NUMBERS.length)];
        return switch (r.nextInt(9)) {
            case 0 -> "INSERT INTO " + table() + " VALUES (" + v + "," + w + "," + v + "," + w + ",'n')";
            case 1 -> "INSERT INTO fz0 VALUES (" + r.nextInt(40) + "," + v + "," + w + "," + v + ",x)";
            case 2 -> "SELECT * FROM " + table() + " WHERE " + column() + " = " + v;
            case 3 -> "SELECT * FROM " + table() + " WHERE " + column() + " BETWEEN " + v + " AND " + w;
            case 4 -> "UPDATE " + table() + " SET a = a " + pick("+", "-", "*", "/", "%") + " " + v + " WHERE id = " + r.nextInt(4);
            case 5 -> "UPDATE " + table() + " SET b = b * " + v + ", c = c / " + w + " WHERE " + column() + " >= " + v;
            case 6 -> "SELECT " + pick("SUM", "AVG", "MIN", "MAX") + "(" + column() + " * " + v + ") FROM " + table();
            case 7 -> "SELECT * FROM " + table() + " WHERE id IN (" + v + "," + w + ") LIMIT " + v + " OFFSET " + w;
            default -> "SELECT " + v + " " + pick("+", "-", "*", "/", "%") + " " + w + ", id FROM " + table() + " LIMIT 2";
        };
    }

    private List<byte[]> connectionCommand() {
        List<byte[]> out = new ArrayList<>();
        out.add(utf8(CONNECTION_COMMANDS[r.nextInt(CONNECTION_COMMANDS.length)]));
        int n = r.nextInt(0, 4);
        for (int i = 0; i < n; i++) {
            out.add(utf8(switch (r.nextInt(6)) {
                case 0 -> pick("2", "3", "0", "-1", "4", "99999999999");
                case 1 -> pick("AUTH", "SETNAME", "default", "all", "memory", "tables", "commandstats", "everything");
                case 2 -> pick("GET", "SET", "RESET", "LEN", "COUNT", "LIST", "INFO", "DOCS", "HELP", "KILL", "REPLY");
                case 3 -> pick("maxclients", "requirepass", "*", "port", "OFF");
                case 4 -> value();
                default -> KEYWORDS[r.nextInt(KEYWORDS.length)];
            }));
        }
        return out;
    }

    /** Valid UTF-8 in names and strings, and bytes that are not UTF-8 at all. */
    private List<byte[]> utf8() {
        List<byte[]> words = split(nearValid());
        int i = r.nextInt(words.size());
        byte[] junk = switch (r.nextInt(6)) {
            case 0 -> new byte[] {(byte) 0xff, (byte) 0xfe, 'a'};
            case 1 -> new byte[] {(byte) 0xc3};                              // truncated 2-byte sequence
            case 2 -> new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80};     // a lone surrogate
            case 3 -> new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80}; // past U+10FFFF
            case 4 -> utf8("ünïcødé 日本語 🙂 \u0301\u200b");
            default -> randomBytes(r.nextInt(1, 12));
        };
        byte[] w = words.get(i);
        int at = r.nextInt(w.length + 1);
        byte[] mixed = new byte[w.length + junk.length];
        System.arraycopy(w, 0, mixed, 0, at);
        System.arraycopy(junk, 0, mixed, at, junk.length);
        System.arraycopy(w, at, mixed, at + junk.length, w.length - at);
        words.set(i, mixed);
        return words;
    }

    /** A near-valid statement with tokens dropped, repeated, swapped or replaced. */
    private List<byte[]> mutated(String statement) {
        List<String> tokens = new ArrayList<>(List.of(statement.split(" ")));
        int edits = r.nextInt(1, 4);
        for (int e = 0; e < edits && !tokens.isEmpty(); e++) {
            int i = r.nextInt(tokens.size());
            switch (r.nextInt(5)) {
                case 0 -> tokens.remove(i);
                case 1 -> tokens.add(i, tokens.get(i));
                case 2 -> tokens.set(i, SYMBOLS[r.nextInt(SYMBOLS.length)]);
                case 3 -> tokens.set(i, KEYWORDS[r.nextInt(KEYWORDS.length)]);
                default -> {
                    String t = tokens.get(i);
                    tokens.set(i, t.isEmpty() ? t : t.substring(0, r.nextInt(t.length())));
                }
            }
        }
        if (tokens.isEmpty()) {
            tokens.add("SELECT");
        }
        return split(String.join(" ", tokens));
    }

    /** Very long identifiers (always starting fz) and strings. */
    private String longNames() {
        boolean huge = r.nextInt(8) == 0;
        String name = "fz" + "q".repeat(r.nextInt(1, 4) * (huge ? 20_000 : 300));
        String text = "s".repeat(r.nextInt(1, 4) * (huge ? 100_000 : 1000));
        return switch (r.nextInt(6)) {
            case 0 -> "CREATE TABLE " + name + " (id int primary key, " + name.substring(0, 200) + " text)";
            case 1 -> "SELECT " + name + " FROM " + table();
            case 2 -> "SELECT * FROM " + name + " WHERE id = 1";
            case 3 -> "INSERT INTO fzt VALUES ('" + text + "', 1, 2, 3, 4)";
            case 4 -> "SELECT * FROM fz1 WHERE d = '" + text + "'";
            default -> "UPDATE fz0 SET d = '" + text + "' WHERE id = " + r.nextInt(5);
        };
    }

    /** IN lists of 10,000 to 100,000 items. */
    private String hugeIn() {
        int n = r.nextInt(10_000, 100_001);
        StringBuilder sb = new StringBuilder(n * 8);
        String col = r.nextInt(4) == 0 ? "d" : pick("id", "a", "c");
        String t = table();
        sb.append(pick("SELECT COUNT(*) FROM " + t, "SELECT id FROM " + t, "DELETE FROM " + t, "UPDATE " + t + " SET a = a + 1"))
            .append(" WHERE ").append(col).append(" IN (");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (col.equals("d")) {
                sb.append('\'').append(i).append('\'');
            } else {
                sb.append(r.nextInt(8) == 0 ? EDGE_NUMBERS[r.nextInt(EDGE_NUMBERS.length)] : String.valueOf(i * 7));
            }
        }
        return sb.append(')').toString();
    }

    // ---- raw inputs ------------------------------------------------------------------------

    /** One raw input: bytes that need not be RESP at all. */
    byte[] raw() {
        int k = r.nextInt(1000);
        if (k < 200) {
            return randomBytes(r.nextInt(1, r.nextInt(10) == 0 ? 5000 : 200));
        } else if (k < 400) {
            byte[] f = frame(framed());
            return prefix(java.util.Arrays.copyOf(f, r.nextInt(f.length)));     // truncated frame
        } else if (k < 550) {
            return prefix(corrupt(frame(framed())));
        } else if (k < 750) {
            return prefix(malformedHeader());
        } else if (k < 850) {
            return prefix(oversized());
        } else {
            return prefix(inline());
        }
    }

    /** Sometimes puts well-formed commands in front: their replies must come before any error. */
    private byte[] prefix(byte[] tail) {
        if (r.nextInt(3) != 0) {
            return tail;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int n = r.nextInt(1, 4);
        for (int i = 0; i < n; i++) {
            b.writeBytes(r.nextBoolean() ? frame(List.of(utf8("PING"))) : frame(split(nearValid())));
        }
        b.writeBytes(tail);
        return b.toByteArray();
    }

    private byte[] corrupt(byte[] f) {
        byte[] out = f.clone();
        int edits = r.nextInt(1, 4);
        for (int e = 0; e < edits && out.length > 0; e++) {
            int i = r.nextInt(out.length);
            switch (r.nextInt(4)) {
                case 0 -> out[i] = (byte) r.nextInt(256);
                case 1 -> out[i] = (byte) "\r\n*$:+-0123456789".charAt(r.nextInt(16));
                case 2 -> {
                    byte[] shorter = new byte[out.length - 1];
                    System.arraycopy(out, 0, shorter, 0, i);
                    System.arraycopy(out, i + 1, shorter, i, out.length - i - 1);
                    out = shorter;
                }
                default -> {
                    byte[] longer = new byte[out.length + 1];
                    System.arraycopy(out, 0, longer, 0, i);
                    longer[i] = (byte) "\r\n*$".charAt(r.nextInt(4));
                    System.arraycopy(out, i, longer, i + 1, out.length - i);
                    out = longer;
                }
            }
        }
        return out;
    }

    private byte[] malformedHeader() {
        String[] shapes = {
            "*-2\r\n", "*-1\r\n$4\r\nPING\r\n", "*99999999999\r\n", "*9223372036854775808\r\n", "*abc\r\n",
            "*\r\n", "*1\r\n$abc\r\nPING\r\n", "*1\r\n$-5\r\n", "*1\r\n$-1\r\n", "*1\r\n$\r\n",
            "*1\r\n$4\r\nPINGxx", "*1\r\n$4\r\nPING\n", "*1\n$4\nPING\n", "*1\r$4\rPING\r",
            "*2\r\n$4\r\nECHO\r\n*1\r\n$1\r\na\r\n", "*2\r\n$4\r\nECHO\r\n:1\r\n", "*2\r\n$4\r\nECHO\r\n+OK\r\n",
            "*1\r\n-ERR x\r\n", ":1\r\n", "+OK\r\n", "-ERR\r\n", "$4\r\nPING\r\n", "%1\r\n$1\r\na\r\n$1\r\nb\r\n",
            "~1\r\n$4\r\nPING\r\n", "_\r\n", "#t\r\n", ",1.5\r\n", "(123\r\n", "=8\r\ntxt:PING\r\n",
            "*1\r\n*1\r\n$4\r\nPING\r\n", "*3\r\n$3\r\nSQL\r\n$6\r\nSELECT\r\n", "*1 \r\n$4\r\nPING\r\n",
            "* 1\r\n$4\r\nPING\r\n", "*+1\r\n$4\r\nPING\r\n", "*01\r\n$04\r\nPING\r\n", "*1\r\n$4 \r\nPING\r\n",
            "*1\r\n$0x4\r\nPING\r\n", "*1\r\n$4\r\nPING\r\r\n", "*2\r\n$4\r\nPING\r\n", "\r\n\r\n*1\r\n",
            "*\u0000\r\n", "*1\r\n$1\r\n\u0000\r\n", "*-0\r\n", "*0\r\n*0\r\n*0\r\n",
        };
        return shapes[r.nextInt(shapes.length)].getBytes(StandardCharsets.ISO_8859_1);
    }

    /** Lengths at and past the decoder's limits, with little or none of the promised payload. */
    private byte[] oversized() {
        String[] shapes = {
            "*1\r\n$536870912\r\nabc", "*1\r\n$536870913\r\n", "*1\r\n$2147483647\r\n", "*1\r\n$2147483648\r\n",
            "*1\r\n$9223372036854775807\r\n", "*1\r\n$99999999999999999999\r\n", "*1048576\r\n$4\r\nPING\r\n",
            "*1048577\r\n", "*2147483647\r\n", "*2147483648\r\n", "*1\r\n$1048576\r\n" + "x".repeat(1000),
        };
        if (r.nextInt(40) == 0) {
            // An inline line longer than any buffer a decoder keeps, without its CRLF.
            return ("PING " + "y".repeat(r.nextInt(60_000, 200_000))).getBytes(StandardCharsets.US_ASCII);
        }
        if (r.nextInt(60) == 0) {
            // A real multibulk of many arguments.
            int n = r.nextInt(10_000, 200_000);
            ByteArrayOutputStream b = new ByteArrayOutputStream(n * 8);
            b.writeBytes(("*" + (n + 2) + "\r\n$6\r\nSELECT\r\n$1\r\n*\r\n").getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < n; i++) {
                b.writeBytes("$1\r\n,\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            return b.toByteArray();
        }
        return shapes[r.nextInt(shapes.length)].getBytes(StandardCharsets.US_ASCII);
    }

    private byte[] inline() {
        String[] shapes = {
            "ECHO \"oops\r\n", "ECHO 'oops\r\n", "ECHO \"a\"b\r\n", "echo 'it''s'\r\n", "ECHO \"\\x4\"\r\n",
            "ECHO \"\\xzz\\\"\r\n", "PING\r\n", "PING\n", "SELECT * FROM fz0\r\n", "SELECT \"*\" FROM fz0 WHERE \"id = 1\r\n",
            "   \r\n", "\"\"\r\n", "''\r\n", "SQL \"SELECT 'a\r\n", "INSERT INTO fz0 VALUES \"(1,2,3,4,'x)\"\r\n",
        };
        if (r.nextBoolean()) {
            return shapes[r.nextInt(shapes.length)].getBytes(StandardCharsets.UTF_8);
        }
        // An inline rendering of a near-valid statement with random quotes sprinkled in.
        StringBuilder sb = new StringBuilder(nearValid());
        int quotes = r.nextInt(1, 4);
        for (int i = 0; i < quotes; i++) {
            sb.insert(r.nextInt(sb.length() + 1), pick("\"", "'", "\\", "\\\"", "\\x"));
        }
        return (sb + pick("\r\n", "\n", "")).getBytes(StandardCharsets.UTF_8);
    }

    // ---- helpers ---------------------------------------------------------------------------

    private byte[] randomBytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) r.nextInt(256);
        }
        return b;
    }

    private String pick(String... options) {
        return options[r.nextInt(options.length)];
    }

    /** Splits a statement into words where a client might: at spaces, or keeps it whole. */
    private List<byte[]> split(String statement) {
        List<byte[]> out = new ArrayList<>();
        if (r.nextInt(4) == 0) {
            out.add(utf8("SQL"));
            out.add(utf8(statement));
            return out;
        }
        int cut = statement.indexOf(' ');
        if (cut < 0) {
            out.add(utf8(statement));
            return out;
        }
        out.add(utf8(statement.substring(0, cut)));
        String rest = statement.substring(cut + 1);
        if (r.nextBoolean()) {
            out.add(utf8(rest));
        } else {
            for (String w : rest.split(" ", -1)) {
                out.add(utf8(w));
            }
        }
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The RESP array of bulk strings for {@code words}. */
    static byte[] frame(List<byte[]> words) {
        int size = 16;
        for (byte[] w : words) {
            size += w.length + 16;
        }
        ByteArrayOutputStream b = new ByteArrayOutputStream(size);
        b.writeBytes(("*" + words.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (byte[] w : words) {
            b.writeBytes(("$" + w.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            b.writeBytes(w);
            b.writeBytes(new byte[] {'\r', '\n'});
        }
        return b.toByteArray();
    }

    /** Printable rendering of an input for failure messages: escapes, and the middle cut. */
    static String show(byte[] input) {
        StringBuilder sb = new StringBuilder();
        int limit = 1500;
        for (int i = 0; i < input.length; i++) {
            if (i == limit && input.length > limit * 2) {
                sb.append("...<").append(input.length - 2 * limit).append(" bytes>...");
                i = input.length - limit;
            }
            int c = input[i] & 0xff;
            if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\\') {
                sb.append("\\\\");
            } else if (c >= 0x20 && c < 0x7f) {
                sb.append((char) c);
            } else {
                sb.append(String.format("\\x%02x", c));
            }
        }
        return sb.append(" (").append(input.length).append(" bytes)").toString();
    }
}
