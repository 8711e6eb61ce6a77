package io.respsql.exec.write;

import io.respsql.result.FloatText;
import io.respsql.storage.Column;
import io.respsql.storage.TextColumn;

/**
 * A stored value as SQL text that reads back as the same value: NULL, numbers (floats in their
 * shortest round-trip form), text quoted with {@code ''} escapes, {@code DATE '...'},
 * {@code TIMESTAMP '...'}, TRUE/FALSE. DUMP's rows and error messages use it.
 */
final class SqlText {
    private SqlText() {
    }

    static String value(Column c, int row) {
        StringBuilder sb = new StringBuilder();
        append(sb, c, row);
        return sb.toString();
    }

    static void append(StringBuilder sb, Column c, int row) {
        if (c.isNull(row)) {
            sb.append("NULL");
            return;
        }
        switch (c.type()) {
            case FLOAT: {
                double d = c.getDouble(row);
                if (d - d != 0) {
                    sb.append('\'').append(FloatText.text(d)).append('\''); // 'NaN', 'Infinity': reads back as a FLOAT
                } else {
                    sb.append(FloatText.text(d));
                }
                return;
            }
            case TEXT:
                quote(sb, ((TextColumn) c).getString(row));
                return;
            case NUMERIC_TEXT: // a NUMERIC's text, quoted so that any dialect reads it back digit for digit
                quote(sb, ((TextColumn) c).getString(row));
                return;
            case INT_ARRAY:
            case BIGINT_ARRAY:
            case FLOAT_ARRAY:
            case TEXT_ARRAY:
            case BOOLEAN_ARRAY:
            case DATE_ARRAY:
            case TIMESTAMP_ARRAY:
            case NUMERIC_ARRAY: // arrays: their text, which the column reads back
                quote(sb, ((TextColumn) c).getString(row));
                return;
            case NUMERIC:
                long u = c.getLong(row);
                sb.append('\'').append(u == io.respsql.expr.Numeric.STORED_NAN ? "NaN"
                        : io.respsql.expr.Numeric.text(u, c.numericScale(), null)).append('\'');
                return;
            case BOOLEAN:
                sb.append(c.getLong(row) != 0 ? "TRUE" : "FALSE");
                return;
            case DATE:
                sb.append("DATE '").append(Temporals.dateText(c.getLong(row))).append('\'');
                return;
            case TIMESTAMP:
                sb.append("TIMESTAMP '").append(Temporals.timestampText(c.getLong(row))).append('\'');
                return;
            case INTERVAL: {
                TextColumn t = (TextColumn) c;
                sb.append("INTERVAL '").append(io.respsql.expr.Interval.toString(t.bytes(row), t.offset(row))).append('\'');
                return;
            }
            default:
                sb.append(c.getLong(row));
        }
    }

    static void quote(StringBuilder sb, String s) {
        sb.append('\'').append(s.replace("'", "''")).append('\'');
    }
}
