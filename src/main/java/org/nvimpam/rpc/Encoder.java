package org.nvimpam.rpc;

import java.io.IOException;
import org.msgpack.core.MessagePacker;

/**
 * Writes exactly one msgpack value. For request and notification parameters that value is the
 * params ARRAY, header included.
 */
@FunctionalInterface
public interface Encoder {
  void write(MessagePacker out) throws IOException;
}
