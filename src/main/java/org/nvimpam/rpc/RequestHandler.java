package org.nvimpam.rpc;

import org.msgpack.core.MessageUnpacker;

/**
 * Handles one request from the peer on a worker thread. The returned encoder writes the result
 * value; an exception (thrown here or by the encoder) is answered with its message as the error.
 * {@code params} is positioned at the params array and is valid only during the call.
 */
@FunctionalInterface
public interface RequestHandler {
  Encoder handle(MessageUnpacker params) throws Exception;
}
