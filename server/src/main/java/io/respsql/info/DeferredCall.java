package io.respsql.info;

/**
 * A command whose reply is written after its handler returned (a query run in the background):
 * its call, time, latency sample and SLOWLOG entry are recorded by {@link #complete}, once, on the
 * event loop, when the reply is written (or the client is found gone), so the stats stay
 * single-threaded and the time counted is the statement's whole run, not the hand-off.
 */
public interface DeferredCall {
    /**
     * The reply was written, or could not be (the client went away); {@code failed}: it was an
     * error, was cut short, or was never delivered. Calls after the first are ignored.
     */
    void complete(boolean failed);
}
