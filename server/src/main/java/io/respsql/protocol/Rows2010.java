package io.respsql.protocol;

import io.respsql.result.ResultColumns;

/**
 * The 2010 dialect's reply to a SELECT: an array with one bulk string per row, the row's values
 * joined by commas (FLOAT values without a fraction written as integers); a lone
 * {@code COUNT(*)} is a bare integer. Column names are not sent. The same bytes under RESP2 and
 * RESP3: 2010 scripts get what they always got, whatever their client negotiates.
 */
public final class Rows2010 extends RespResult {
    private static final byte[] EMPTY = new byte[0];

    /** Encodes the next statement's result into {@code w}, from its current position; returns this (no allocation). */
    public Rows2010 on(RespWriter w) {
        point(w);
        return this;
    }

    @Override
    public void columns(ResultColumns columns, long rowCount) {
        out.arrayHeader(rowCount);
    }

    @Override
    public void beginRow() {
        out.beginRow();
    }

    @Override
    public void longValue(long v) {
        out.rowLong(v);
    }

    @Override
    public void doubleValue(double v) {
        out.rowDouble(v);
    }

    @Override
    public void textValue(byte[] b, int off, int len) {
        out.rowBytes(b, off, len);
    }

    /** An empty field, as the 2010 server wrote an aggregate over no rows. */
    @Override
    public void nullValue() {
        out.rowBytes(EMPTY, 0, 0);
    }

    @Override
    public void endRow() {
        out.endRow();
    }

    @Override
    public void end() {
    }

    @Override
    public void countStar(ResultColumns columns, long count) {
        out.integer(count);
    }
}
