package org.nvimpam.rpc;

import java.io.IOException;
import org.msgpack.core.MessageUnpacker;

/** Reads exactly one msgpack value and turns it into a {@code T}. */
@FunctionalInterface
public interface Decoder<T> {
  T read(MessageUnpacker in) throws IOException;
}
