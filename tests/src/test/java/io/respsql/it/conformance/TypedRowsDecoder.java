package io.respsql.it.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * A typed SELECT reply (planned, issue 10): an array of rows, each an array with one element
 * per column: integers as RESP integers, floats as bulk strings or RESP3 doubles, text as bulk
 * strings, NULL as a RESP null. A lone integer reply is taken as one row of one value.
 */
final class TypedRowsDecoder implements ResultDecoder {
    @Override
    public Decoded decode(Object reply, int columns) {
        if (reply instanceof Reply.Error e) {
            return Decoded.error(e.text());
        }
        if (reply instanceof Long n) {
            return Decoded.rows(List.of(List.of(n)));
        }
        if (!(reply instanceof List<?> items)) {
            return Decoded.error("not a result set: " + reply);
        }
        List<List<Object>> rows = new ArrayList<>(items.size());
        for (Object item : items) {
            if (!(item instanceof List<?> row)) {
                return Decoded.error("row is not an array: " + item);
            }
            rows.add(new ArrayList<>(row));
        }
        return Decoded.rows(rows);
    }
}
