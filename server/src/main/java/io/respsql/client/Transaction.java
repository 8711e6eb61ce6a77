package io.respsql.client;

import java.util.ArrayList;
import java.util.List;

/**
 * A client's MULTI state (Redis's {@code multiState}): the commands queued since MULTI, each as a
 * copy of its argument bytes, whether one of them was refused while queueing (EXEC then replies
 * {@code -EXECABORT}), and the union of their command flags. Event-loop thread only.
 */
public final class Transaction {
    private final List<byte[][]> queued = new ArrayList<>();
    private boolean failed;
    private int flags;
    /**
     * The dialect the next queued statement will run in at EXEC: the connection's at MULTI, then
     * as the queued {@code SET sql_dialect} statements leave it. A statement is checked at queue
     * time in that dialect ({@code ::} parses only in PostgreSQL's).
     */
    private boolean postgres;

    public Transaction(boolean postgres) {
        this.postgres = postgres;
    }

    public boolean postgres() {
        return postgres;
    }

    /** A queued {@code SET sql_dialect} will switch the dialect of the statements queued after it. */
    public void postgres(boolean on) {
        postgres = on;
    }

    public void add(byte[][] args, int commandFlags) {
        queued.add(args);
        flags |= commandFlags;
    }

    public List<byte[][]> queued() {
        return queued;
    }

    /** A command was refused at queue time: the EXEC will be refused. */
    public void fail() {
        failed = true;
    }

    public boolean failed() {
        return failed;
    }

    /** The command flags of every queued command, or'ed. */
    public int flags() {
        return flags;
    }

    /**
     * The tables a client WATCHes, each with the change counter at the time it was watched
     * (see {@code SqlEngine.changedSince}). Survives MULTI; EXEC, DISCARD and UNWATCH clear it.
     */
    public static final class Watches {
        private final List<String> tables = new ArrayList<>();
        private final List<Long> since = new ArrayList<>();

        /** Watches {@code table} from {@code point} on, unless it is watched already (as Redis). */
        public void add(String table, long point) {
            for (String t : tables) {
                if (t.equalsIgnoreCase(table)) {
                    return;
                }
            }
            tables.add(table);
            since.add(point);
        }

        public int size() {
            return tables.size();
        }

        public String table(int i) {
            return tables.get(i);
        }

        public long since(int i) {
            return since.get(i);
        }
    }
}
