"""CIFAR-10 with the usual augmentation (torchvision downloads it into ./data on first use)."""


def cifar10(train=True, root="./data"):
    import torchvision  # only when the real data is wanted (train.py --dummy needs no torchvision)
    import torchvision.transforms as T

    mean, std = (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
    steps = [T.RandomCrop(32, padding=4), T.RandomHorizontalFlip()] if train else []
    transform = T.Compose([*steps, T.ToTensor(), T.Normalize(mean, std)])
    return torchvision.datasets.CIFAR10(root=root, train=train, download=True, transform=transform)
