"""CIFAR-10 ResNet-18 trainer for NVIDIA GPUs (single card or torch.distributed with NCCL).

Run on GPUs:  torchrun --nproc_per_node=2 train.py --epochs 10
"""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader
from torch.utils.data.distributed import DistributedSampler

from models.resnet import resnet18
from data import cifar10


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--lr", type=float, default=0.1)
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
    train_set = cifar10(train=True)
    sampler = DistributedSampler(train_set) if distributed else None
    loader = DataLoader(train_set, batch_size=args.batch_size, shuffle=sampler is None, sampler=sampler)
    criterion = nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    scaler = torch.cuda.amp.GradScaler()

    for epoch in range(args.epochs):
        if sampler is not None:
            sampler.set_epoch(epoch)
        for step, (images, target) in enumerate(loader):
            images, target = images.cuda(non_blocking=True), target.to("cuda")
            with torch.cuda.amp.autocast():
                loss = criterion(model(images), target)
            optimizer.zero_grad()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            if step % 50 == 0 and local_rank == 0:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
    if local_rank == 0:
        torch.save(model.state_dict(), "resnet18_cifar10.pth")


if __name__ == "__main__":
    main()
