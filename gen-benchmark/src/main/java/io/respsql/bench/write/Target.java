package io.respsql.bench.write;

import java.util.List;

/**
 * A database the write benchmark runs its statements against. Both targets get the same SQL text
 * except where named here (index DDL, statistics after seeding, bulk seeding). {@link #lastNanos}
 * is the client round trip of the last statement: request encoding is done before the clock
 * starts, reading and decoding the whole reply is inside it.
 */
interface Target extends AutoCloseable {

    /** "RespSQL" or "PostgreSQL". */
    String name();

    /** Short lowercase name for file names. */
    String key();

    /** Runs a write; returns the rows it matched (0 for a status reply such as +OK). */
    long exec(String sql);

    /** Runs a query; each row's values joined by commas, as RespSQL replies them. */
    List<String> query(String sql);

    /** Round trip of the last {@link #exec} or {@link #query}, in nanoseconds. */
    long lastNanos();

    /** Drops and creates {@code t}, inserts rows 1..n, builds the grp index (and statistics). */
    void rebuild(long n);

    /** The statements {@link #rebuild} runs, for the record. */
    String rebuildDescription();

    /** A second connection to the same database, for a concurrent role. */
    Target open();

    /** Server version and settings, for the record. */
    String describe();

    @Override
    void close();

    default long scalar(String sql) {
        List<String> rows = query(sql);
        if (rows.size() != 1) {
            throw new BenchFailure(name() + ": expected one row from " + sql + ", got " + rows);
        }
        return Long.parseLong(rows.get(0));
    }

    /** The seeded row with this id: id, grp = id % 100, v, tag = 'x<id>'. */
    static String row(long id, long v) {
        return id + "," + (id % 100) + "," + v + ",x" + id;
    }

    /** {@code INSERT INTO t VALUES ...} for ids from..to with their seeded values. */
    static String insertSeeded(long from, long to) {
        StringBuilder sb = new StringBuilder(40 + (int) (to - from + 1) * 32);
        sb.append("INSERT INTO t VALUES ");
        for (long id = from; id <= to; id++) {
            if (id > from) {
                sb.append(',');
            }
            sb.append('(').append(id).append(',').append(id % 100).append(',').append(id)
                    .append(",'x").append(id).append("')");
        }
        return sb.toString();
    }
}
