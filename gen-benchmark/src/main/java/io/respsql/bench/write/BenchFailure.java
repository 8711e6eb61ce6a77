package io.respsql.bench.write;

/** A failed invariant or an error reply: the run stops and reports it. */
final class BenchFailure extends RuntimeException {
    BenchFailure(String message) {
        super(message);
    }
}
