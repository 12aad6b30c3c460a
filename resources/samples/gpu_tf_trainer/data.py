"""MNIST batches for train.py (tf.keras.datasets downloads the files on first use)."""

import numpy as np
import tensorflow as tf


def load_mnist(batch_size, shard=(1, 0)):
    (x_train, y_train), (x_test, y_test) = tf.keras.datasets.mnist.load_data()
    x_train = x_train.reshape(-1, 784).astype(np.float32) / 255.0
    x_test = x_test.reshape(-1, 784).astype(np.float32) / 255.0
    size, rank = shard
    x_train, y_train = x_train[rank::size], y_train[rank::size]

    def batches():
        while True:
            order = np.random.permutation(len(x_train))
            for start in range(0, len(order) - batch_size + 1, batch_size):
                idx = order[start : start + batch_size]
                yield x_train[idx], y_train[idx]

    return batches(), (x_test, y_test)
