package io.respsql.expr;

import io.respsql.protocol.RespWriter;

import java.nio.charset.StandardCharsets;

/** Literal values, after constant folding. */
public final class Constant {
    private Constant() {
    }

    public static final class LongValue extends BoundExpr {
        public final long value;

        public LongValue(long value) {
            super(ValueType.LONG);
            this.value = value;
        }

        @Override
        public long evalLong(int[] rows) {
            return value;
        }

        @Override
        public boolean isConstant() {
            return true;
        }

        @Override
        public String describe() {
            return Long.toString(value);
        }
    }

    public static final class DoubleValue extends BoundExpr {
        public final double value;

        public DoubleValue(double value) {
            super(ValueType.DOUBLE);
            this.value = value;
        }

        @Override
        public double evalDouble(int[] rows) {
            return value;
        }

        @Override
        public boolean isConstant() {
            return true;
        }

        @Override
        public String describe() {
            return RespWriter.doubleText(value);
        }
    }

    public static final class Text extends BoundExpr {
        public final String value;
        public final byte[] bytes;

        public Text(String value) {
            super(ValueType.TEXT);
            this.value = value;
            this.bytes = value.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public boolean isConstant() {
            return true;
        }

        @Override
        public byte[] textBytes(int[] rows) {
            return bytes;
        }

        @Override
        public int textOffset(int[] rows) {
            return 0;
        }

        @Override
        public int textLength(int[] rows) {
            return bytes.length;
        }

        @Override
        public String describe() {
            return "'" + value.replace("'", "''") + "'";
        }
    }
}
