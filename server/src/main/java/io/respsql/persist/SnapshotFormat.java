package io.respsql.persist;

import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;

/**
 * The snapshot file layout (version 1). Every number is little-endian; a string is an int byte
 * length then UTF-8 bytes.
 *
 * <pre>
 * "RSQLSNAP"  int version  long createdMillis  int tableCount
 * per table:
 *   string name  int columnCount  (string name, byte type) * columnCount  int primaryPosition
 *   int indexCount  (string name, int columnPosition) * indexCount     secondary, in creation order
 *   int highWater  long liveCount  long[(highWater + 63) / 64] liveBitmap   slot s = bit s%64 of word s/64
 *   int freeCount  int[freeCount] freeList                                 oldest first
 *   per column, slots 0 .. highWater-1: int | long | double bits | (int length, bytes)
 * int crc32c (of every byte before it)  "RSQL_END"
 * </pre>
 *
 * Freed slots are written too (as 0 or the empty string), so a load lays rows out in exactly the
 * same slots and later inserts reuse slots in the same order.
 */
final class SnapshotFormat {
    static final byte[] MAGIC = "RSQLSNAP".getBytes(StandardCharsets.US_ASCII);
    static final byte[] END = "RSQL_END".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    /** I/O buffer size for reading and writing. */
    static final int BUFFER = 1 << 20;
    /** Longest table, column or index name accepted when reading (guards against corrupt lengths). */
    static final int MAX_NAME = 1 << 16;
    static final int MAX_COLUMNS = 1 << 16;

    private SnapshotFormat() {
    }

    static byte typeCode(ColumnType type) {
        switch (type) {
            case INT:
                return 1;
            case BIGINT:
                return 2;
            case FLOAT:
                return 3;
            case TEXT:
                return 4;
            default:
                throw new IllegalArgumentException(type.name());
        }
    }

    /** The type of a code, or null when the code is unknown. */
    static ColumnType type(byte code) {
        switch (code) {
            case 1:
                return ColumnType.INT;
            case 2:
                return ColumnType.BIGINT;
            case 3:
                return ColumnType.FLOAT;
            case 4:
                return ColumnType.TEXT;
            default:
                return null;
        }
    }
}
