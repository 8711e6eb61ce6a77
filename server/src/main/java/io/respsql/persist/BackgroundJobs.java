package io.respsql.persist;

/**
 * At most one background persistence job (a snapshot save or a log rewrite) runs at a time: each
 * holds a capture of the catalog, and only one capture may be outstanding. Event loop only.
 */
public final class BackgroundJobs {
    private String running;

    /** The running job's name ("append only file rewriting", "save"), or null. */
    public String running() {
        return running;
    }

    /** Claims the slot for {@code job}; false when another job holds it. */
    public boolean tryStart(String job) {
        if (running != null) {
            return false;
        }
        running = job;
        return true;
    }

    public void finished() {
        running = null;
    }
}
