package io.respsql.command;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Case-insensitive map from command name to {@link CommandSpec}. Lookup hashes the request's name
 * bytes directly (ASCII case folded), so finding a command allocates nothing.
 */
public final class CommandTable {
    private final CommandSpec[] slots;
    private final int mask;
    private final List<CommandSpec> all;

    public CommandTable(Collection<CommandSpec> specs) {
        int capacity = Integer.highestOneBit(Math.max(4, specs.size() * 4) - 1) << 1;
        slots = new CommandSpec[capacity];
        mask = capacity - 1;
        List<CommandSpec> sorted = new ArrayList<>(specs);
        sorted.sort(Comparator.comparing(CommandSpec::name));
        for (CommandSpec spec : sorted) {
            byte[] n = spec.nameBytes();
            int i = hash(n) & mask;
            while (slots[i] != null) {
                if (slots[i].name().equals(spec.name())) {
                    throw new IllegalArgumentException("duplicate command " + spec.name());
                }
                i = (i + 1) & mask;
            }
            slots[i] = spec;
        }
        all = Collections.unmodifiableList(sorted);
    }

    /** The command named by the readable bytes of {@code name}, or {@code null}. */
    public CommandSpec lookup(ByteBuf name) {
        int len = name.readableBytes();
        int base = name.readerIndex();
        int h = 0;
        for (int k = 0; k < len; k++) {
            h = 31 * h + fold(name.getByte(base + k));
        }
        for (int i = h & mask; ; i = (i + 1) & mask) {
            CommandSpec s = slots[i];
            if (s == null) {
                return null;
            }
            if (s.nameEquals(name)) {
                return s;
            }
        }
    }

    /** The command called {@code name} (any case), or {@code null}. */
    public CommandSpec lookup(String name) {
        byte[] b = name.getBytes(StandardCharsets.UTF_8);
        return lookup(io.netty.buffer.Unpooled.wrappedBuffer(b));
    }

    /** Every command, sorted by name. */
    public List<CommandSpec> all() {
        return all;
    }

    public int size() {
        return all.size();
    }

    private static int hash(byte[] lowerName) {
        int h = 0;
        for (byte c : lowerName) {
            h = 31 * h + c;
        }
        return h;
    }

    private static int fold(byte c) {
        return c >= 'A' && c <= 'Z' ? c + 32 : c;
    }
}
