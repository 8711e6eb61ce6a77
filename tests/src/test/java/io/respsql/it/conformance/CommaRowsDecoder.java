package io.respsql.it.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The 2010 SELECT reply (of {@code SQL}): an array of bulk strings, one per row, the values joined by
 * commas; a lone {@code COUNT(*)} is an integer. It cannot carry a NULL, nor a comma inside a
 * text value: such a row splits into more values than the query has columns and is reported as
 * wrong.
 */
final class CommaRowsDecoder implements ResultDecoder {
    @Override
    public String command() {
        return "SQL";
    }

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
            if (!(item instanceof String row)) {
                return Decoded.error("row is not a bulk string: " + item);
            }
            rows.add(Arrays.asList((Object[]) row.split(",", -1)));
        }
        return Decoded.rows(rows);
    }
}
