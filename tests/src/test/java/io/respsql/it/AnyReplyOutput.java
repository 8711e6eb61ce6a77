package io.respsql.it;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A lettuce output that keeps any reply's shape: status, bulk and verbatim strings become
 * {@link String} (a null {@code null}), integers {@link Long}, RESP3 doubles {@link Double} and
 * booleans {@link Boolean}, arrays and sets {@code List<Object>} (nested as on the wire), RESP3
 * maps a flat {@code List<Object>} of keys and values. Error replies make lettuce throw {@code RedisCommandExecutionException}.
 */
final class AnyReplyOutput extends CommandOutput<String, String, Object> {
    private static final class Frame {
        final List<Object> items;
        final int expected;

        Frame(int expected) {
            this.items = new ArrayList<>(Math.max(expected, 0));
            this.expected = expected;
        }
    }

    private final Deque<Frame> stack = new ArrayDeque<>();
    private boolean done;

    AnyReplyOutput() {
        super(StringCodec.UTF8, null);
    }

    @Override
    public void set(ByteBuffer bytes) {
        add(bytes == null ? null : decodeString(bytes));
    }

    @Override
    public void setSingle(ByteBuffer bytes) {
        add(bytes == null ? null : decodeString(bytes));
    }

    @Override
    public void set(long integer) {
        add(integer);
    }

    @Override
    public void set(double number) {
        add(number);
    }

    @Override
    public void set(boolean value) {
        add(value);
    }

    @Override
    public void multi(int count) {
        if (count < 0) {
            add(null);
            return;
        }
        stack.push(new Frame(count));
        if (count == 0) {
            close();
        }
    }

    private void add(Object value) {
        if (stack.isEmpty()) {
            if (!done) {
                output = value;
                done = true;
            }
            return;
        }
        stack.peek().items.add(value);
        close();
    }

    /** Pops every array that just received its last element into its parent (or the result). */
    private void close() {
        while (!stack.isEmpty() && stack.peek().items.size() == stack.peek().expected) {
            Frame full = stack.pop();
            if (stack.isEmpty()) {
                output = full.items;
                done = true;
            } else {
                stack.peek().items.add(full.items);
            }
        }
    }
}
