package io.respsql.protocol;

import io.respsql.result.ResultColumns;

/**
 * The typed reply form of a result (the {@code QUERY} command): one array of
 * {@code 2 + rows} elements — the column names, the column types ({@code INT}, {@code BIGINT},
 * {@code FLOAT}, {@code TEXT}), then each row as an array with one element per column.
 * Integers are RESP integers, text a bulk string with its bytes as stored (commas, quotes, CR/LF
 * and UTF-8 untouched), a FLOAT a bulk string in shortest round-trip form ({@link io.respsql.result.ShortestDouble};
 * whole values below 1e15 without a fraction, as everywhere in RespSQL), NULL a null bulk
 * string. Under RESP3 a FLOAT is a RESP3 double ({@code ,1.5}) and NULL is {@code _}; the shape
 * is the same in both protocols, so a client reads it one way.
 *
 * <p>Like the 2010 form it streams: a chunk may leave at the end of any row.
 */
public final class TypedRows extends RespResult {
    private int width;

    /** Encodes the next statement's result into {@code w}, from its current position; returns this (no allocation). */
    public TypedRows on(RespWriter w) {
        point(w);
        return this;
    }

    @Override
    public void columns(ResultColumns columns, long rowCount) {
        int n = columns.size();
        width = n;
        out.arrayHeader(2 + rowCount);
        out.arrayHeader(n);
        for (int i = 0; i < n; i++) {
            out.bulk(columns.name(i));
        }
        out.arrayHeader(n);
        for (int i = 0; i < n; i++) {
            out.bulk(columns.type(i));
        }
    }

    @Override
    public void beginRow() {
        out.arrayHeader(width);
    }

    @Override
    public void longValue(long v) {
        out.integer(v);
    }

    @Override
    public void doubleValue(double v) {
        out.doubleValue(v);
    }

    @Override
    public void textValue(byte[] b, int off, int len) {
        out.bulk(b, off, len);
    }

    @Override
    public void nullValue() {
        out.nullBulk();
    }

    @Override
    public void endRow() {
        out.endOfValue();
    }

    @Override
    public void end() {
    }

    @Override
    public void countStar(ResultColumns columns, long count) {
        columns(columns, 1);
        beginRow();
        longValue(count);
        endRow();
        end();
    }
}
