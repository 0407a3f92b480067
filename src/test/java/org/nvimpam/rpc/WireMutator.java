package org.nvimpam.rpc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Mutations of valid msgpack-RPC traffic: bit flips, byte replacement, insertion, deletion,
 * splices of two streams, and inflation of a header's length field — the ways a broken peer, a
 * torn pipe or a bad encoder damage a stream.
 */
final class WireMutator {
  /** Bytes that start headers with length fields, or that msgpack never uses. */
  private static final int[] INTERESTING = {0xc1, 0xc0, 0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
      0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xd4, 0xd8, 0xd9, 0xda, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xff};

  enum Kind { BIT_FLIP, BYTE_REPLACE, INSERT, DELETE, SPLICE, INFLATE, REPEAT }

  /** A header with a length (or count) field: where it is, how wide the field is. */
  record LengthField(int headerAt, int fieldAt, int fieldBytes) {}

  private final Random r;

  WireMutator(Random r) {
    this.r = r;
  }

  Kind pick() {
    Kind[] all = Kind.values();
    return all[r.nextInt(all.length)];
  }

  /** Applies {@code kind} to a copy of {@code in}; {@code other} is the second stream of a splice. */
  byte[] mutate(Kind kind, byte[] in, byte[] other) {
    byte[] b = in.clone();
    switch (kind) {
      case BIT_FLIP -> {
        for (int i = 1 + r.nextInt(4); i > 0 && b.length > 0; i--) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
        return b;
      }
      case BYTE_REPLACE -> {
        for (int i = 1 + r.nextInt(3); i > 0 && b.length > 0; i--) {
          b[r.nextInt(b.length)] = (byte) (r.nextBoolean() ? INTERESTING[r.nextInt(INTERESTING.length)] : r.nextInt(256));
        }
        return b;
      }
      case INSERT -> {
        byte[] ins = new byte[1 + r.nextInt(r.nextBoolean() ? 4 : 64)];
        for (int i = 0; i < ins.length; i++) {
          ins[i] = (byte) (r.nextBoolean() ? INTERESTING[r.nextInt(INTERESTING.length)] : r.nextInt(256));
        }
        return insert(b, r.nextInt(b.length + 1), ins);
      }
      case DELETE -> {
        if (b.length == 0) return b;
        int at = r.nextInt(b.length);
        int n = Math.min(b.length - at, 1 + r.nextInt(r.nextBoolean() ? 4 : 64));
        byte[] out = new byte[b.length - n];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(b, at + n, out, at, b.length - at - n);
        return out;
      }
      case SPLICE -> {
        int cut = r.nextInt(b.length + 1);
        int from = r.nextInt(other.length + 1);
        if (r.nextBoolean()) { // head of one, tail of the other
          byte[] out = Arrays.copyOf(b, cut + other.length - from);
          System.arraycopy(other, from, out, cut, other.length - from);
          return out;
        }
        int to = from + r.nextInt(other.length - from + 1);
        return insert(b, cut, Arrays.copyOfRange(other, from, to)); // a slice of the other inside
      }
      case INFLATE -> {
        List<LengthField> fields = lengthFields(b);
        if (fields.isEmpty()) return mutate(Kind.BIT_FLIP, in, other);
        LengthField f = fields.get(r.nextInt(fields.size()));
        inflate(b, f);
        return b;
      }
      default -> { // REPEAT: a run repeated, e.g. a container header stacked deeper than allowed
        if (b.length == 0) return b;
        int at = r.nextInt(b.length);
        int n = Math.min(b.length - at, 1 + r.nextInt(8));
        int times = 1 + r.nextInt(r.nextBoolean() ? 4 : 200);
        byte[] run = new byte[n * times];
        for (int i = 0; i < times; i++) System.arraycopy(b, at, run, i * n, n);
        return insert(b, at, run);
      }
    }
  }

  private static byte[] insert(byte[] b, int at, byte[] ins) {
    byte[] out = new byte[b.length + ins.length];
    System.arraycopy(b, 0, out, 0, at);
    System.arraycopy(ins, 0, out, at, ins.length);
    System.arraycopy(b, at, out, at + ins.length, b.length - at);
    return out;
  }

  /** Sets a length field to a larger value: +1, doubled, the form's maximum, or around a limit. */
  private void inflate(byte[] b, LengthField f) {
    long old = 0;
    for (int i = 0; i < f.fieldBytes(); i++) old = (old << 8) | (b[f.fieldAt() + i] & 0xff);
    long max = f.fieldBytes() == 0 ? 15 : (1L << (8 * f.fieldBytes())) - 1;
    long[] choices = {old + 1, old * 2 + 1, max, max - 1, 1L << 20, (1L << 28) + 1, 1L << 25, (1L << 25) + 1,
        0x7fff_ffffL, old + 1 + r.nextInt(1000)};
    long v = Math.min(max, choices[r.nextInt(choices.length)]);
    if (f.fieldBytes() == 0) { // fix form: the length lives in the header byte's low bits
      int h = b[f.headerAt()] & 0xff;
      int bits = (h & 0xe0) == 0xa0 ? 0x1f : 0x0f;
      b[f.headerAt()] = (byte) ((h & ~bits) | (int) Math.min(v, bits));
      return;
    }
    for (int i = f.fieldBytes() - 1; i >= 0; i--) {
      b[f.fieldAt() + i] = (byte) v;
      v >>>= 8;
    }
  }

  /**
   * The headers with length fields in {@code b}, walked as msgpack as far as it goes (a damaged
   * stream yields those before the damage).
   */
  static List<LengthField> lengthFields(byte[] b) {
    List<LengthField> out = new ArrayList<>();
    int p = 0;
    while (p < b.length) {
      int h = b[p] & 0xff;
      int fieldBytes;
      int headerLen;
      boolean payloadFollows;
      if (h <= 0x7f || h >= 0xe0 || h == 0xc0 || h == 0xc2 || h == 0xc3) {
        p++;
        continue;
      } else if (h <= 0x9f) { // fixmap, fixarray
        out.add(new LengthField(p, p, 0));
        p++;
        continue;
      } else if (h <= 0xbf) { // fixstr
        out.add(new LengthField(p, p, 0));
        p += 1 + (h & 0x1f);
        continue;
      }
      switch (h) {
        case 0xc4, 0xd9 -> { fieldBytes = 1; headerLen = 2; payloadFollows = true; }
        case 0xc5, 0xda -> { fieldBytes = 2; headerLen = 3; payloadFollows = true; }
        case 0xc6, 0xdb -> { fieldBytes = 4; headerLen = 5; payloadFollows = true; }
        case 0xc7 -> { fieldBytes = 1; headerLen = 3; payloadFollows = true; }
        case 0xc8 -> { fieldBytes = 2; headerLen = 4; payloadFollows = true; }
        case 0xc9 -> { fieldBytes = 4; headerLen = 6; payloadFollows = true; }
        case 0xdc, 0xde -> { fieldBytes = 2; headerLen = 3; payloadFollows = false; }
        case 0xdd, 0xdf -> { fieldBytes = 4; headerLen = 5; payloadFollows = false; }
        case 0xca -> { p += 5; continue; }
        case 0xcb -> { p += 9; continue; }
        case 0xcc, 0xd0 -> { p += 2; continue; }
        case 0xcd, 0xd1 -> { p += 3; continue; }
        case 0xce, 0xd2 -> { p += 5; continue; }
        case 0xcf, 0xd3 -> { p += 9; continue; }
        case 0xd4 -> { p += 3; continue; }
        case 0xd5 -> { p += 4; continue; }
        case 0xd6 -> { p += 6; continue; }
        case 0xd7 -> { p += 10; continue; }
        case 0xd8 -> { p += 18; continue; }
        default -> { return out; } // 0xc1
      }
      if (p + headerLen > b.length) return out;
      out.add(new LengthField(p, p + 1, fieldBytes));
      long len = 0;
      for (int i = 0; i < fieldBytes; i++) len = (len << 8) | (b[p + 1 + i] & 0xff);
      p += headerLen;
      if (payloadFollows) {
        if (len > b.length - p) return out;
        p += (int) len;
      }
    }
    return out;
  }
}
