package io.respsql.persist;

import io.respsql.storage.ColumnType;

import java.nio.charset.StandardCharsets;

/**
 * The snapshot file layout (version 4). Every number is little-endian; a string is an int byte
 * length then UTF-8 bytes.
 *
 * <pre>
 * "RSQLSNAP"  int version  long createdMillis  int tableCount
 * per table:
 *   string name  int columnCount
 *   per column: string name  byte type  byte flags (1: NOT NULL, 2: has DEFAULT, 4: has a type modifier)
 *               [int typeModifier]  [string defaultText]
 *   int primaryPosition                                                    -1: no PRIMARY KEY
 *   int indexCount   per secondary index, in creation order:
 *     string name  byte unique  int columnCount  (int columnPosition, byte descending) * columnCount
 *   int highWater  long liveCount  long[(highWater + 63) / 64] liveBitmap   slot s = bit s%64 of word s/64
 *   int freeCount  int[freeCount] freeList                                 oldest first
 *   per column: byte hasNulls  [long[(highWater + 63) / 64] nullBitmap]    as the live bitmap
 *               then slots 0 .. highWater-1: int | long | double bits | (int length, bytes)
 * int viewCount   per view: string name  int columnCount  string[columnCount]  string queryText
 * int preparedCount   per prepared statement, in the order they were first prepared:
 *   string name  string text  int paramCount
 *   per parameter: int mark (offset of its '?' in text, as a char index)  byte type (0: the value decides)
 *                  [string column, when type is not 0]
 * int sectionCount   (version 4 on) per section: string kind  int byteLength  bytes   (a reader skips a kind it does not know)
 *   "sequences": int count, per sequence: string name  byte bits (16, 32, 64)  long increment  long min  long max
 *                long start  long cache  byte cycle  long lastValue  byte isCalled  byte identity (0, 'a', 'd')
 *                byte owned  [string table  string column]
 *   "constraints": CHECK, FOREIGN KEY and key constraint names (storage.TableConstraints#encode)
 *   "partitions": partition keys, bounds and the order of each table's partitions (storage.Partitioning#encode)
 * int crc32c (of every byte before it)  "RSQL_END"
 * </pre>
 *
 * <p>Version 4 adds the sections and column flag 8 (an identity column; its sequence, in the
 * "sequences" section, says ALWAYS or BY DEFAULT).
 *
 * Types: 1 INT, 2 BIGINT, 3 FLOAT, 4 TEXT, 5 BOOLEAN (as INT 0/1), 6 DATE (as INT days),
 * 7 TIMESTAMP (as BIGINT microseconds), 8 NUMERIC (version 4: with a type modifier {@code (p << 16) | s}
 * and p <= 18 the unscaled long at scale s, else each value's canonical text, as TEXT). Freed slots and NULL slots are written too (as 0 or the
 * empty string), so a load lays rows out in exactly the same slots and later inserts reuse slots
 * in the same order.
 *
 * <p>Version 3 (read, no longer written) is version 4 without type modifiers, type 8 (NUMERIC) and the
 * sections after the prepared statements.
 *
 * <p>Version 2 (read, no longer written) is version 3 without the prepared statements. They are a
 * new section, not an addition to version 2: a version-2 reader takes whatever follows the views
 * for the checksum, so it would reject such a file as damaged rather than say it is newer.
 *
 * <p>Version 1 (read, no longer written) differs: a column is {@code string name, byte type}
 * (types 1-4); the primary position is never -1; an index is {@code string name, int
 * columnPosition}; columns have no null bitmap byte; there are no views.
 */
final class SnapshotFormat {
    static final byte[] MAGIC = "RSQLSNAP".getBytes(StandardCharsets.US_ASCII);
    static final byte[] END = "RSQL_END".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 4;
    /** Version 4's section of table constraints (storage.TableConstraints#encode). */
    static final String SECTION_CONSTRAINTS = "constraints";
    /** partition: version 4's section of partition trees (storage.Partitioning#encode). */
    static final String SECTION_PARTITIONS = "partitions";
    /** Longest section accepted when reading. */
    static final int MAX_SECTION = 1 << 30;
    /** The oldest version the reader still loads. */
    static final int OLDEST_VERSION = 1;
    static final byte FLAG_NOT_NULL = 1;
    static final byte FLAG_DEFAULT = 2;
    /** Version 4: an int type modifier (varchar(n): n) follows the flags byte, before the DEFAULT text. */
    static final byte FLAG_TYPE_MODIFIER = 4;
    /** Version 4: the column is an identity column (seq helper). */
    static final byte FLAG_IDENTITY = 8;
    /** Section kind of the sequences (version 4). */
    static final String SECTION_SEQUENCES = "sequences";
    /** I/O buffer size for reading and writing. */
    static final int BUFFER = 1 << 20;
    /** Longest table, column or index name accepted when reading (guards against corrupt lengths). */
    static final int MAX_NAME = 1 << 16;
    /** Type code of a prepared statement's parameter that the value types (a number or text). */
    static final byte UNTYPED = 0;
    /** Longest DEFAULT, view query or prepared statement text accepted when reading. */
    static final int MAX_TEXT = 1 << 26;
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
            case BOOLEAN:
                return 5;
            case DATE:
                return 6;
            case TIMESTAMP:
                return 7;
            case NUMERIC:
            case NUMERIC_TEXT:
                return 8;
            case INTERVAL:
                return 9; // version 4's code (the numeric helper's NUMERIC is 8)
            default:
                if (type.isArray()) {
                    return 11; // arrays: the element type's OID in the type modifier
                }
                throw new IllegalArgumentException(type.name());
        }
    }

    /** The type of a code in a file of {@code version}, or null when the code is unknown there. */
    static ColumnType type(byte code, int version) {
        if ((version < 2 && code > 4) || (version < 4 && code > 7)) {
            return null;
        }
        switch (code) {
            case 1:
                return ColumnType.INT;
            case 2:
                return ColumnType.BIGINT;
            case 3:
                return ColumnType.FLOAT;
            case 4:
                return ColumnType.TEXT;
            case 5:
                return ColumnType.BOOLEAN;
            case 6:
                return ColumnType.DATE;
            case 7:
                return ColumnType.TIMESTAMP;
            case 8:
                return ColumnType.NUMERIC_TEXT; // the column's type modifier decides: ColumnType.numeric
            case 9:
                return version >= 3 ? ColumnType.INTERVAL : null;
            case 11:
                return version >= 4 ? ColumnType.TEXT_ARRAY : null; // arrays: the modifier decides the element
            default:
                return null;
        }
    }
}
