package io.respsql.persist;

import io.respsql.storage.ProgressLog;
import io.respsql.storage.CatalogImage;
import io.respsql.storage.ColumnImage;
import io.respsql.storage.PreparedDef;
import io.respsql.storage.RowsImage;
import io.respsql.storage.TableImage;
import io.respsql.storage.ViewDef;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Writes a {@link CatalogImage} in the {@link SnapshotFormat} through one 1 MiB buffer: no
 * allocation per row. Runs on any thread (the image is immutable); does not close or sync the
 * target.
 */
public final class SnapshotWriter {
    private final WritableByteChannel out;
    private final ByteBuffer buf = ByteBuffer.allocate(SnapshotFormat.BUFFER).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long written;
    private final ProgressLog progress;
    /** Rows times columns: the work of the column data, which is nearly all of it. */
    private long cellsTotal;
    private long cellsDone;
    private final SnapshotProgress saved;

    private SnapshotWriter(WritableByteChannel out, String what, SnapshotProgress rows) {
        this.out = out;
        this.progress = new ProgressLog(what);
        this.saved = rows;
    }

    /** Writes the whole snapshot; returns its size in bytes. */
    public static long write(CatalogImage image, WritableByteChannel out) throws IOException {
        return write(image, out, "Writing snapshot");
    }

    /** {@link #write(CatalogImage, WritableByteChannel)}; {@code what} names the work in progress log lines. */
    public static long write(CatalogImage image, WritableByteChannel out, String what) throws IOException {
        return write(image, out, what, new SnapshotProgress());
    }

    /** As above, keeping {@code rows} up to date as the rows are written. */
    public static long write(CatalogImage image, WritableByteChannel out, String what, SnapshotProgress rows) throws IOException {
        SnapshotWriter w = new SnapshotWriter(out, what, rows);
        w.image(image);
        return w.written;
    }

    /** {@link #write(CatalogImage, WritableByteChannel)} to a stream (left open, not flushed beyond the bytes). */
    public static long write(CatalogImage image, OutputStream out) throws IOException {
        long n = write(image, Channels.newChannel(out));
        out.flush();
        return n;
    }

    private void image(CatalogImage image) throws IOException {
        bytes(SnapshotFormat.MAGIC, 0, SnapshotFormat.MAGIC.length);
        i32(SnapshotFormat.VERSION);
        i64(image.createdMillis());
        i32(image.tables().size());
        long rowsTotal = 0;
        for (TableImage t : image.tables()) {
            cellsTotal += (long) t.rows().highWater() * t.columnCount();
            rowsTotal += t.rows().highWater();
        }
        saved.rowsDone = 0;
        saved.rowsTotal = rowsTotal;
        identities = image.sequences();
        for (TableImage t : image.tables()) {
            table(t);
        }
        i32(image.views().size());
        for (ViewDef v : image.views()) {
            string(v.name());
            i32(v.columnNames().size());
            for (String c : v.columnNames()) {
                string(c);
            }
            string(v.queryText());
        }
        i32(image.preparedStatements().size());
        for (PreparedDef p : image.preparedStatements()) {
            string(p.name());
            string(p.text());
            i32(p.paramCount());
            for (int i = 0; i < p.paramCount(); i++) {
                PreparedDef.Param param = p.params().get(i);
                i32(p.mark(i));
                room(1);
                buf.put(param.type() == null ? SnapshotFormat.UNTYPED : SnapshotFormat.typeCode(param.type()));
                if (param.type() != null) {
                    string(param.column());
                }
            }
        }
        sections(image);
        flush();
        // The checksum covers every byte before it; the end marker follows it.
        int sum = (int) crc.getValue();
        buf.putInt(sum);
        buf.put(SnapshotFormat.END);
        drain();
    }

    private void table(TableImage t) throws IOException {
        string(t.name());
        i32(t.columnCount());
        for (int c = 0; c < t.columnCount(); c++) {
            ColumnImage col = t.column(c);
            string(col.name());
            room(2);
            buf.put(SnapshotFormat.typeCode(col.type()));
            // arrays (code 11): the element type's PostgreSQL OID is the modifier
            int modifier = col.type().isArray() ? col.type().elementOid() : col.typeModifier();
            byte flags = (byte) ((col.notNull() ? SnapshotFormat.FLAG_NOT_NULL : 0)
                    | (col.defaultText() != null ? SnapshotFormat.FLAG_DEFAULT : 0)
                    | (modifier >= 0 ? SnapshotFormat.FLAG_TYPE_MODIFIER : 0)
                    | (isIdentity(t.name(), col.name()) ? SnapshotFormat.FLAG_IDENTITY : 0));
            buf.put(flags);
            if (modifier >= 0) {
                i32(modifier);
            }
            if (col.defaultText() != null) {
                string(col.defaultText());
            }
        }
        i32(t.primaryPosition());
        i32(t.indexes().size());
        for (TableImage.IndexDef ix : t.indexes()) {
            string(ix.name());
            room(1);
            buf.put((byte) (ix.unique() ? 1 : 0));
            i32(ix.columns().length);
            for (int i = 0; i < ix.columns().length; i++) {
                i32(ix.columns()[i]);
                room(1);
                buf.put((byte) (ix.descending()[i] ? 1 : 0));
            }
        }
        RowsImage rows = t.rows();
        int highWater = rows.highWater();
        i32(highWater);
        i64(rows.liveCount());
        for (int w = 0, n = rows.liveWords(); w < n; w++) {
            i64(rows.liveWord(w));
        }
        i32(rows.freeCount());
        for (int i = 0, n = rows.freeCount(); i < n; i++) {
            i32(rows.free(i));
        }
        long rowsBefore = saved.rowsDone;
        for (int c = 0; c < t.columnCount(); c++) {
            column(t.column(c), highWater);
            cellsDone += highWater;
            saved.rowsDone = rowsBefore + (long) highWater * (c + 1) / t.columnCount(); // columns are written one after another
        }
    }

    private void column(ColumnImage c, int highWater) throws IOException {
        boolean nulls = c.hasNulls();
        room(1);
        buf.put((byte) (nulls ? 1 : 0));
        if (nulls) {
            for (int w = 0, n = (highWater + 63) >>> 6; w < n; w++) {
                long word = c.nullWord(w);
                if (w == n - 1 && (highWater & 63) != 0) {
                    word &= (1L << highWater) - 1; // no bits above the high-water mark
                }
                i64(word);
            }
        }
        switch (c.type().storedAs()) {
            case INT:
                for (int row = 0; row < highWater; row++) {
                    room(4);
                    buf.putInt(c.getInt(row));
                }
                break;
            case BIGINT:
                for (int row = 0; row < highWater; row++) {
                    room(8);
                    buf.putLong(c.getLong(row));
                }
                break;
            case FLOAT:
                for (int row = 0; row < highWater; row++) {
                    room(8);
                    // raw bits: -0.0 and every NaN payload survive
                    buf.putLong(Double.doubleToRawLongBits(c.getDouble(row)));
                }
                break;
            case TEXT:
                for (int row = 0; row < highWater; row++) {
                    int len = c.textLength(row);
                    i32(len);
                    if (len > 0) {
                        bytes(c.textArray(row), c.textOffset(row), len);
                    }
                }
                break;
            default:
                throw new IllegalStateException(c.type().name());
        }
    }

    /** The image's sequences, for the identity flag of columns. */
    private java.util.List<io.respsql.storage.Sequence> identities = java.util.List.of();

    private boolean isIdentity(String table, String column) {
        for (io.respsql.storage.Sequence q : identities) {
            if (q.identity != 0 && q.ownedBy(table, column)) {
                return true;
            }
        }
        return false;
    }

    /** Version 4's sections: {@code int count}, then per section its kind, byte length and bytes. */
    /** Version 4's sections (string kind, int byteLength, bytes); a reader skips a kind it does not know. */
    private void sections(CatalogImage image) throws IOException {
        byte[] constraints = image.constraintsSection();
        byte[] partitions = image.partitionsSection(); // partition
        i32((constraints == null ? 1 : 2) + (partitions == null ? 0 : 1));
        byte[] seqs = sequences(image.sequences());
        string(SnapshotFormat.SECTION_SEQUENCES);
        i32(seqs.length);
        bytes(seqs, 0, seqs.length);
        if (constraints != null) {
            string(SnapshotFormat.SECTION_CONSTRAINTS);
            i32(constraints.length);
            bytes(constraints, 0, constraints.length);
        }
        if (partitions != null) {
            string(SnapshotFormat.SECTION_PARTITIONS);
            i32(partitions.length);
            bytes(partitions, 0, partitions.length);
        }
    }

    private static byte[] sequences(java.util.List<io.respsql.storage.Sequence> list) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(64).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(list.size());
        out.write(b.array(), 0, b.position());
        for (io.respsql.storage.Sequence q : list) {
            sectionString(out, q.name());
            b.clear();
            b.put((byte) q.bits).putLong(q.increment).putLong(q.min).putLong(q.max).putLong(q.start).putLong(q.cache)
                    .put((byte) (q.cycle ? 1 : 0)).putLong(q.lastValue).put((byte) (q.isCalled ? 1 : 0)).put(q.identity)
                    .put((byte) (q.ownedTable != null ? 1 : 0));
            out.write(b.array(), 0, b.position());
            if (q.ownedTable != null) {
                sectionString(out, q.ownedTable);
                sectionString(out, q.ownedColumn);
            }
        }
        return out.toByteArray();
    }

    private static void sectionString(java.io.ByteArrayOutputStream out, String s) {
        byte[] v = s.getBytes(StandardCharsets.UTF_8);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(v.length);
        out.write(b.array(), 0, 4);
        out.write(v, 0, v.length);
    }

    private void string(String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        i32(b.length);
        bytes(b, 0, b.length);
    }

    private void i32(int v) throws IOException {
        room(4);
        buf.putInt(v);
    }

    private void i64(long v) throws IOException {
        room(8);
        buf.putLong(v);
    }

    private void bytes(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            room(1);
            int n = Math.min(len, buf.remaining());
            buf.put(b, off, n);
            off += n;
            len -= n;
        }
    }

    private void room(int n) throws IOException {
        if (buf.remaining() < n) {
            flush();
        }
    }

    /** Checksums and writes the buffered bytes. */
    private void flush() throws IOException {
        crc.update(buf.array(), 0, buf.position());
        drain();
    }

    private void drain() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            written += out.write(buf);
        }
        buf.clear();
        progress.at(cellsDone, cellsTotal, written);
    }
}
