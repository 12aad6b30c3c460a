"""MNIST softmax classifier, TensorFlow 1.15 on a GPU, with Horovod data parallelism.

Run on GPUs:  horovodrun -np 2 python3 train.py --steps 2000
"""

import argparse

import horovod.tensorflow as hvd
import tensorflow as tf

from data import load_mnist


def build_model(images, keep_prob):
    hidden = tf.layers.dense(images, 256, activation=tf.nn.relu)
    hidden = tf.nn.dropout(hidden, keep_prob=keep_prob)
    return tf.layers.dense(hidden, 10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=128)
    args = parser.parse_args()

    hvd.init()
    images = tf.placeholder(tf.float32, [None, 784])
    labels = tf.placeholder(tf.int64, [None])
    keep_prob = tf.placeholder(tf.float32)
    logits = build_model(images, keep_prob)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    global_step = tf.train.get_or_create_global_step()
    opt = tf.train.AdamOptimizer(1e-3 * hvd.size())
    opt = hvd.DistributedOptimizer(opt)
    train_op = opt.minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))
    mean_acc = hvd.allreduce(accuracy)

    config = tf.ConfigProto()
    config.gpu_options.allow_growth = True
    config.gpu_options.visible_device_list = str(hvd.local_rank())
    train, test = load_mnist(args.batch_size, shard=(hvd.size(), hvd.rank()))
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(hvd.broadcast_global_variables(0))
        for step in range(args.steps):
            x, y = next(train)
            _, value = sess.run([train_op, loss], feed_dict={images: x, labels: y, keep_prob: 0.5})
            if step % 100 == 0 and hvd.rank() == 0:
                print(f"step {step} loss {value:.4f}")
        x, y = test
        print("accuracy", sess.run(mean_acc, feed_dict={images: x, labels: y, keep_prob: 1.0}))


if __name__ == "__main__":
    main()
