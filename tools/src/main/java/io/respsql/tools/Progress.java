package io.respsql.tools;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress on stderr, from counters the work updates ({@link #rows}, {@link #bytes}): on a
 * terminal a bar redrawn in place several times a second (rows, rows/s, bytes, percent, time left),
 * otherwise one plain line every few seconds, so a log is readable. A thread of its own draws, so
 * the work never waits on the terminal.
 */
final class Progress implements AutoCloseable {
    volatile long rows;
    volatile long bytes;

    private final boolean bar;
    private final boolean quiet;
    private final long intervalNanos;
    private final PrintStream err;
    private final String command;
    private volatile String phase = "";
    /** What 100% is: bytes of the input (import) or rows (export); 0 when unknown. */
    private volatile long total;
    private volatile boolean totalIsRows;
    private volatile long phaseStart = System.nanoTime();
    private final Thread drawer;
    private volatile boolean closed;
    private int lastWidth;
    /** The terminal's width (the launcher passes it; 80 when unknown). */
    private final int columns = Math.max(20, Integer.getInteger("respsql.columns", 80));
    /** Plain lines printed in this phase: a phase too short to report one ends silently. */
    private int linesThisPhase;

    /** mode: auto (bar when {@code terminal}, else plain), bar, plain or none. */
    Progress(String command, String mode, boolean terminal, double intervalSeconds, PrintStream err) {
        this.command = command;
        this.err = err;
        this.quiet = mode.equals("none");
        this.bar = mode.equals("bar") || mode.equals("auto") && terminal;
        this.intervalNanos = bar ? 200_000_000L : (long) (Math.max(0.1, intervalSeconds) * 1e9);
        drawer = new Thread(this::draw, command + "-progress");
        drawer.setDaemon(true);
        if (!quiet) {
            drawer.start();
        }
    }

    /** Starts a phase ("checking", "loading", ...): counters restart from zero. */
    synchronized void phase(String name, long total, boolean totalIsRows) {
        endLine();
        this.phase = name;
        this.total = total;
        this.totalIsRows = totalIsRows;
        this.rows = 0;
        this.bytes = 0;
        this.phaseStart = System.nanoTime();
        this.linesThisPhase = 0;
    }

    private void draw() {
        long next = System.nanoTime() + intervalNanos;
        while (!closed) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            next += intervalNanos;
            synchronized (this) {
                if (!closed) {
                    show(false);
                }
            }
        }
    }

    /** The current state, once (also the last word of a phase when {@code done}). */
    synchronized void show(boolean done) {
        if (quiet || phase.isEmpty()) {
            return;
        }
        long r = rows;
        long b = bytes;
        double secs = Math.max(1e-9, (System.nanoTime() - phaseStart) / 1e9);
        double rate = r / secs;
        long t = total;
        double done01 = t <= 0 ? -1 : Math.min(1.0, (totalIsRows ? r : b) / (double) t);
        String left = "";
        if (done01 > 0 && done01 < 1) {
            left = duration(secs * (1 - done01) / done01);
        }
        if (bar) {
            StringBuilder tail = new StringBuilder();
            if (done01 >= 0) {
                tail.append(String.format(Locale.ROOT, "%3d%% ", (int) Math.floor(done01 * 100)));
            }
            tail.append(String.format(Locale.ROOT, "%,d rows %s rows/s", r, si(rate)));
            if (!totalIsRows) {
                tail.append(' ').append(t > 0 ? String.format(Locale.ROOT, "%.1f/%.1f MB", b / 1e6, t / 1e6) : mb(b));
            }
            if (!left.isEmpty()) {
                tail.append(' ').append(left).append(" left");
            } else if (done) {
                tail.append(String.format(Locale.ROOT, " %.1f s", secs));
            }
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-8s ", phase));
            // the bar takes what the terminal's width leaves, up to 24: a wrapped line could not be redrawn
            int width = Math.min(24, columns - 1 - sb.length() - 3 - tail.length());
            if (done01 >= 0 && width >= 5) {
                int filled = (int) Math.round(done01 * width);
                sb.append('[').append("#".repeat(filled)).append(".".repeat(width - filled)).append("] ");
            }
            sb.append(tail);
            if (sb.length() > columns - 1) {
                sb.setLength(Math.max(0, columns - 1));
            }
            String line = sb.toString();
            int pad = Math.max(0, lastWidth - line.length());
            err.print("\r" + line + " ".repeat(pad));
            lastWidth = line.length();
            if (done) {
                endLine();
            }
        } else {
            if (done && linesThisPhase == 0) {
                return;
            }
            linesThisPhase++;
            StringBuilder sb = new StringBuilder(command).append(": ").append(phase).append(": ");
            sb.append(String.format(Locale.ROOT, "%d rows, %.0f rows/s", r, rate));
            if (!totalIsRows) {
                sb.append(", ").append(mb(b));
                if (t > 0) {
                    sb.append(" of ").append(mb(t));
                }
            }
            if (done01 >= 0) {
                sb.append(String.format(Locale.ROOT, " (%d%%)", (int) Math.floor(done01 * 100)));
            }
            if (!left.isEmpty()) {
                sb.append(", about ").append(left).append(" left");
            }
            if (done) {
                sb.append(String.format(Locale.ROOT, ", done in %.1f s", secs));
            }
            err.println(sb);
        }
        err.flush();
    }

    private void endLine() {
        if (bar && lastWidth > 0) {
            err.println();
            err.flush();
            lastWidth = 0;
        }
    }

    private static String si(double v) {
        if (v >= 1e9) {
            return String.format(Locale.ROOT, "%.2fG", v / 1e9);
        }
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", v / 1e6);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static String duration(double s) {
        long x = (long) Math.ceil(s);
        return x >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", x / 3600, x / 60 % 60, x % 60)
                : String.format(Locale.ROOT, "%d:%02d", x / 60, x % 60);
    }

    /** Ends the current phase with its final figures. */
    synchronized void done() {
        show(true);
        phase = "";
    }

    @Override
    public void close() {
        closed = true;
        drawer.interrupt();
        synchronized (this) {
            endLine();
        }
    }
}
