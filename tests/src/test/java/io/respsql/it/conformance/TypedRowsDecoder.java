package io.respsql.it.conformance;

import java.util.ArrayList;
import java.util.List;

/**
 * The typed SELECT reply of {@code QUERY} (README, "Typed replies: QUERY"): an array whose
 * first element is the column names, the second the column types ({@code INT}, {@code BIGINT},
 * {@code FLOAT}, {@code TEXT}), then one array per row with one element per column: integers as
 * RESP integers, floats as bulk strings (RESP3 doubles under RESP3), text as bulk strings, no
 * value as a RESP null. A FLOAT that came as a bulk string is decoded to a {@link Double}, so
 * that a value's Java type is its SQL type in both protocols. Anything else (an integer, a
 * status) is not a result set: QUERY answers a SELECT only in the typed form.
 */
final class TypedRowsDecoder implements ResultDecoder {
    @Override
    public String command() {
        return "QUERY";
    }

    @Override
    public Decoded decode(Object reply, int columns) {
        if (reply instanceof Reply.Error e) {
            return Decoded.error(e.text());
        }
        if (!(reply instanceof List<?> items) || items.size() < 2
                || !(items.get(0) instanceof List<?> names) || !(items.get(1) instanceof List<?> typeList)) {
            return Decoded.error("not a typed result set (names, types, rows...): " + reply);
        }
        if (names.size() != typeList.size()) {
            return Decoded.error(names.size() + " column names but " + typeList.size() + " column types: " + reply);
        }
        List<String> types = new ArrayList<>(typeList.size());
        for (Object t : typeList) {
            if (!(t instanceof String s)) {
                return Decoded.error("column type is not a string: " + t);
            }
            types.add(s);
        }
        List<List<Object>> rows = new ArrayList<>(items.size() - 2);
        for (int i = 2; i < items.size(); i++) {
            if (!(items.get(i) instanceof List<?> row)) {
                return Decoded.error("row is not an array: " + items.get(i));
            }
            if (row.size() != types.size()) {
                return Decoded.error("a row of " + row.size() + " values under " + types.size() + " columns: " + row);
            }
            List<Object> values = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                Object v = row.get(c);
                if (v instanceof String s && types.get(c).equals("FLOAT")) {
                    try {
                        // RESP writes NaN and the infinities as Redis does: nan, inf, -inf
                        v = s.equals("nan") ? Double.NaN : s.equals("inf") ? Double.POSITIVE_INFINITY
                                : s.equals("-inf") ? Double.NEGATIVE_INFINITY : Double.valueOf(s);
                    } catch (NumberFormatException e) {
                        return Decoded.error("FLOAT value '" + s + "' is not a number");
                    }
                }
                values.add(v);
            }
            rows.add(values);
        }
        return Decoded.typed(rows, types);
    }
}
