package io.respsql.bench.analytics;

import java.util.List;

/** One system under test: it loads the data set, then answers queries with timings. */
interface Engine extends AutoCloseable {
    /** A query's answer: rows (values as text, NULL as null) or an error; client-side and, where known, server-side time. */
    record Answer(List<List<String>> rows, String error, boolean capped, long clientNanos, long serverMicros) {
        static Answer error(String error, boolean capped, long clientNanos) {
            return new Answer(null, error, capped, clientNanos, -1);
        }

        boolean failed() {
            return error != null;
        }
    }

    /** One timed step of a load. */
    record Step(String system, String step, long rows, double seconds, String note) {
    }

    String name();

    /** Short name for file names: respsql, postgresql, duckdb. */
    String key();

    /** What the reported time is (the clock), for the summary. */
    String clock();

    /** Creates the tables and loads the data set; returns the timed steps. */
    List<Step> load(EcomGen g) throws Exception;

    Answer run(String sql, long capMillis) throws Exception;

    /** Version and settings, for the summary. */
    String describe() throws Exception;

    @Override
    void close();
}
