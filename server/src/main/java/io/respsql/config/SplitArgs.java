package io.respsql.config;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line into arguments the way Redis does for inline commands and configuration files:
 * words separated by blanks, {@code "double quoted"} parts with C escapes ({@code \n \r \t \b \a
 * \\ \" \xHH}), {@code 'single quoted'} parts where only {@code \'} is an escape.
 */
public final class SplitArgs {
    private SplitArgs() {
    }

    /** The arguments of {@code line}, or {@code null} if its quotes are unbalanced. */
    public static List<byte[]> split(byte[] line) {
        List<byte[]> args = new ArrayList<>();
        ByteArrayOutputStream cur = new ByteArrayOutputStream();
        int p = 0;
        int n = line.length;
        while (true) {
            while (p < n && isSpace(line[p])) {
                p++;
            }
            if (p >= n) {
                return args;
            }
            boolean inDouble = false;
            boolean inSingle = false;
            boolean done = false;
            cur.reset();
            while (!done) {
                if (inDouble) {
                    if (p >= n) {
                        return null;
                    }
                    byte c = line[p];
                    if (c == '\\' && p + 3 < n && line[p + 1] == 'x' && isHex(line[p + 2]) && isHex(line[p + 3])) {
                        cur.write(hex(line[p + 2]) * 16 + hex(line[p + 3]));
                        p += 3;
                    } else if (c == '\\' && p + 1 < n) {
                        p++;
                        switch (line[p]) {
                            case 'n' -> cur.write('\n');
                            case 'r' -> cur.write('\r');
                            case 't' -> cur.write('\t');
                            case 'b' -> cur.write('\b');
                            case 'a' -> cur.write(7);
                            default -> cur.write(line[p]);
                        }
                    } else if (c == '"') {
                        // The closing quote must be followed by a blank or the end of the line.
                        if (p + 1 < n && !isSpace(line[p + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(c);
                    }
                } else if (inSingle) {
                    if (p >= n) {
                        return null;
                    }
                    byte c = line[p];
                    if (c == '\\' && p + 1 < n && line[p + 1] == '\'') {
                        p++;
                        cur.write('\'');
                    } else if (c == '\'') {
                        if (p + 1 < n && !isSpace(line[p + 1])) {
                            return null;
                        }
                        done = true;
                    } else {
                        cur.write(c);
                    }
                } else {
                    if (p >= n) {
                        done = true;
                        break;
                    }
                    byte c = line[p];
                    if (isSpace(c)) {
                        done = true;
                    } else if (c == '"') {
                        inDouble = true;
                    } else if (c == '\'') {
                        inSingle = true;
                    } else {
                        cur.write(c);
                    }
                }
                if (p < n) {
                    p++;
                }
            }
            args.add(cur.toByteArray());
        }
    }

    private static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0b || c == '\f';
    }

    private static boolean isHex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c - 'A' + 10;
    }
}
