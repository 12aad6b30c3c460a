"""CIFAR-10 ResNet-18 trainer for NVIDIA GPUs (single card or torch.distributed with NCCL).

Run on GPUs:  torchrun --nproc_per_node=2 train.py --epochs 10
"""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

from models.resnet import resnet18
from data import cifar10


def random_images(n, num_classes=10):
    """``n`` random 3x32x32 images with random int64 labels: a quick run without the CIFAR-10 download."""
    g = torch.Generator().manual_seed(0)
    return TensorDataset(torch.randn(n, 3, 32, 32, generator=g), torch.randint(0, num_classes, (n,), generator=g))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--dummy", type=int, default=0, metavar="N", help="train on N random images (no download)")
    args = parser.parse_args()

    distributed = "WORLD_SIZE" in os.environ
    local_rank = int(os.environ.get("LOCAL_RANK", 0))
    if distributed:
        dist.init_process_group(backend="nccl")
    torch.cuda.set_device(local_rank)
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")

    model = resnet18(num_classes=10).cuda()
    if distributed:
        model = nn.SyncBatchNorm.convert_sync_batchnorm(model)
        model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
    train_set = random_images(args.dummy) if args.dummy else cifar10(train=True)
    sampler = DistributedSampler(train_set) if distributed else None
    loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=sampler is None, sampler=sampler)
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    scaler = torch.cuda.amp.GradScaler()

    for epoch in range(args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        correct = seen = 0
        for step, (images, target) in enumerate(loader):
            images, target = images.cuda(non_blocking=True), target.to("cuda")
            with torch.cuda.amp.autocast():
                output = model(images)
                loss = criterion(output, target)
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            correct += (output.argmax(1) == target).sum().item()
            seen += target.size(0)
            if step % 50 == 0 and local_rank == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
        if local_rank == 0:
            print(f"epoch {epoch} done: {seen} images, train accuracy {correct / max(seen, 1):.3f}")
    if local_rank == 0:
        torch.save(model.state_dict(), "resnet18_cifar10.pth")


if __name__ == "__main__":
    main()
